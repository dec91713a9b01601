"""The device end of SHOE-LINK: session, heartbeats, ring buffer, retransmission, reboot.

Transport-agnostic: bytes come in through `receive`, time through `now`, and bytes leave
through `take_output`.
"""

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from devices.codec.catalogue import decode_message, message_frame
from devices.codec.challenge import challenge_response
from devices.codec.frames import FLAG_RETRANSMISSION, Frame, next_seq, wire_bytes
from devices.codec.host_messages import Ack, HostHello, Nak, Resync
from devices.codec.message_types import Message, MessageError
from devices.codec.messages import AuthResponse, Heartbeat, Hello
from devices.codec.stream import StreamDecoder
from devices.simulator.faults import FaultPlan, FaultyOutput
from devices.simulator.ring import EventRing, HeldEvent


@dataclass(frozen=True, slots=True)
class DeviceIdentity:
    serial: str
    model: str = "SIM-SHOE"
    firmware_version: str = "1.0.0"
    firmware_hash: bytes = hashlib.sha256(b"simulated shoe firmware 1.0.0").digest()
    key: bytes | None = None


@dataclass(frozen=True, slots=True)
class DeviceTiming:
    heartbeat_interval_s: float = 1.0
    retransmit_after_s: float = 0.3
    max_retransmissions: int = 3
    max_in_flight: int = 8
    silent_host_beats: int = 3
    ring_capacity: int = 4096


class LinkState(Enum):
    UNLINKED = "unlinked"
    AWAITING_RESYNC = "awaiting_resync"
    LINKED = "linked"


class ShoeDevice:
    def __init__(
        self,
        identity: DeviceIdentity,
        timing: DeviceTiming,
        rng: random.Random,
        faults: FaultPlan | None = None,
    ) -> None:
        self.identity = identity
        self.timing = timing
        self._rng = rng
        self.output = FaultyOutput(faults or FaultPlan(), rng)
        self.ring = EventRing(timing.ring_capacity)
        # Every event ever held, for verification: what the host commits must be exactly these.
        self.history: dict[tuple[int, int], Message] = {}
        self.heartbeats_enabled = True
        self.lid_open = False
        self.on_first_transmission: Callable[[HeldEvent], None] | None = None
        self.boots = 0
        self.cards_drawn_this_shoe = 0
        self._out = bytearray()
        self.boot_id = 0
        self.state = LinkState.UNLINKED

    def boot(self, now: float) -> None:
        """Power-up: a new boot_id and sequence space; held events keep their original boot_id."""
        self.boots += 1
        self.boot_id = self._rng.randrange(1, 2**32)
        self._next_seq = 1
        self._booted_at = now
        self._decoder = StreamDecoder(self.identity.key)
        self._interval = self.timing.heartbeat_interval_s
        self._next_heartbeat = now
        self._next_hello = now
        self._enter(LinkState.UNLINKED, now)
        self.ring.rewind()

    def dev_ms(self, now: float) -> int:
        return int((now - self._booted_at) * 1000) & 0xFFFFFFFF

    def hold(self, message: Message) -> HeldEvent:
        event = HeldEvent(self.boot_id, self._next_seq, message)
        self._next_seq = next_seq(self._next_seq)
        self.ring.hold(event)
        self.history[(event.boot_id, event.seq)] = message
        return event

    @property
    def all_acknowledged(self) -> bool:
        return len(self.ring) == 0

    def take_output(self) -> bytes:
        out = bytes(self._out)
        self._out.clear()
        return out

    def receive(self, data: bytes, now: float) -> None:
        for frame in self._decoder.feed(data):
            try:
                message = decode_message(frame)
            except MessageError:
                continue
            self._host_heard_at = now
            self._handle(message, now)

    def tick(self, now: float) -> None:
        if self.heartbeats_enabled and now >= self._next_heartbeat:
            self._send_session(self._heartbeat(now))
            self._next_heartbeat = now + self._interval
        if self.state is LinkState.UNLINKED and now >= self._next_hello:
            self._send_session(self._hello())
            self._next_hello = now + self._interval
        elif self.state is LinkState.AWAITING_RESYNC:
            if self._silent_too_long(now, self._state_since):
                self._enter(LinkState.UNLINKED, now)
        elif self.state is LinkState.LINKED:
            self._keep_link(now)

    # Incoming host messages.

    def _handle(self, message: Message, now: float) -> None:
        if isinstance(message, HostHello):
            self._on_host_hello(message, now)
        elif isinstance(message, Resync):
            self._on_resync(message, now)
        elif isinstance(message, Ack) and message.seq:
            self.ring.release_through(message.boot_id, message.seq)
        elif isinstance(message, Nak) and self.state is LinkState.LINKED:
            self.ring.release_through(message.boot_id, message.highest_contiguous_seq)
            self.ring.rewind()

    def _on_host_hello(self, hello: HostHello, now: float) -> None:
        if self.state is LinkState.LINKED:
            # The host started a new session on a line we thought was up: introduce ourselves again.
            self._enter(LinkState.UNLINKED, now)
            self._send_session(self._hello())
            self._next_hello = now + self._interval
            return
        self._interval = max(hello.heartbeat_interval_ms, 10) / 1000
        if self.identity.key is not None:
            key, serial = self.identity.key, self.identity.serial
            mac = challenge_response(key, hello.nonce, self.boot_id, serial)
            self._send_session(AuthResponse(mac))
        self._enter(LinkState.AWAITING_RESYNC, now)

    def _on_resync(self, resync: Resync, now: float) -> None:
        if self.state is LinkState.UNLINKED:
            return
        self.ring.release_through(resync.boot_id, resync.after_seq)
        self.ring.rewind()
        self._enter(LinkState.LINKED, now)

    # Keeping the link.

    def _keep_link(self, now: float) -> None:
        if self._silent_too_long(now, self._host_heard_at):
            self._enter(LinkState.UNLINKED, now)
            return
        oldest = self.ring.oldest_in_flight()
        if oldest is not None and now - oldest.last_sent_at >= self.timing.retransmit_after_s:
            if oldest.timer_retransmissions >= self.timing.max_retransmissions:
                # The retransmit budget is spent: the link is down; keep buffering, say hello again.
                self._enter(LinkState.UNLINKED, now)
                return
            oldest.timer_retransmissions += 1
            self._transmit(oldest, now)
        while self.ring.sent < self.timing.max_in_flight:
            event = self.ring.next_to_send()
            if event is None:
                break
            self._transmit(event, now)
            self.ring.mark_sent()

    def _silent_too_long(self, now: float, since: float) -> bool:
        return now - since > self.timing.silent_host_beats * self._interval

    def _enter(self, state: LinkState, now: float) -> None:
        self.state = state
        self._state_since = now
        self._host_heard_at = now
        if state is LinkState.UNLINKED:
            self.ring.rewind()
            self._next_hello = now

    # Outgoing frames.

    def _transmit(self, event: HeldEvent, now: float) -> None:
        flags = FLAG_RETRANSMISSION if event.times_sent else 0
        frame = message_frame(event.message, boot_id=event.boot_id, seq=event.seq, flags=flags)
        self._write(frame)
        if not event.times_sent and self.on_first_transmission is not None:
            self.on_first_transmission(event)
        event.times_sent += 1
        event.last_sent_at = now

    def _send_session(self, message: Message) -> None:
        self._write(message_frame(message, boot_id=self.boot_id, seq=0))

    def _write(self, frame: Frame) -> None:
        self._out += self.output.emit(wire_bytes(frame, self.identity.key))

    def _hello(self) -> Hello:
        identity = self.identity
        return Hello(
            serial=identity.serial,
            model=identity.model,
            firmware_version=identity.firmware_version,
            firmware_hash=identity.firmware_hash,
            capabilities=Hello.CAPABILITY_KEYED if identity.key is not None else 0,
            last_unacked_seq=self.ring.last_seq_of(self.boot_id),
        )

    def _heartbeat(self, now: float) -> Heartbeat:
        return Heartbeat(
            uptime_ms=self.dev_ms(now),
            status=Heartbeat.STATUS_LID_OPEN if self.lid_open else 0,
            cards_drawn=self.cards_drawn_this_shoe & 0xFFFF,
            queue_depth=len(self.ring),
        )
