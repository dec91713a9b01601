"""The ring buffer of un-ACKed events (non-volatile on real hardware: it survives a reboot)."""

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from devices.codec.frames import seq_is_after
from devices.codec.message_types import Message


@dataclass
class HeldEvent:
    boot_id: int
    seq: int
    message: Message
    times_sent: int = 0
    last_sent_at: float = 0.0
    timer_retransmissions: int = 0


class EventRing:
    """Events in draw order. The first `sent` of them are on the line; the rest wait their turn."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._events: deque[HeldEvent] = deque()
        self.sent = 0
        self.overflowed = 0

    def __len__(self) -> int:
        return len(self._events)

    def __iter__(self) -> Iterator[HeldEvent]:
        return iter(self._events)

    def hold(self, event: HeldEvent) -> None:
        if len(self._events) >= self.capacity:
            self._events.popleft()
            self.sent = max(0, self.sent - 1)
            self.overflowed += 1
        self._events.append(event)

    def release_through(self, boot_id: int, seq: int) -> int:
        """Drop the events of `boot_id` up to and including `seq`: the host has committed them."""
        kept: deque[HeldEvent] = deque()
        still_sent = self.sent
        for index, event in enumerate(self._events):
            if event.boot_id == boot_id and not seq_is_after(event.seq, seq):
                still_sent -= index < self.sent
            else:
                kept.append(event)
        released = len(self._events) - len(kept)
        self._events = kept
        self.sent = still_sent
        return released

    def rewind(self) -> None:
        self.sent = 0
        for event in self._events:
            event.timer_retransmissions = 0

    def oldest_in_flight(self) -> HeldEvent | None:
        return self._events[0] if self.sent else None

    def next_to_send(self) -> HeldEvent | None:
        """The next waiting event, unless it belongs to a newer boot than what is in flight.

        A newer boot waits until the older one is fully acknowledged, so the host commits in
        draw order.
        """
        if self.sent >= len(self._events):
            return None
        candidate = self._events[self.sent]
        if self.sent and candidate.boot_id != self._events[0].boot_id:
            return None
        return candidate

    def mark_sent(self) -> None:
        self.sent += 1

    def last_seq_of(self, boot_id: int) -> int:
        return max((e.seq for e in self._events if e.boot_id == boot_id), default=0)
