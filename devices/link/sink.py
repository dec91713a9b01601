"""What the link needs from the place it records into. The product's sink writes to the database."""

from dataclasses import dataclass, field
from typing import Protocol

from devices.codec.message_types import Message
from devices.codec.messages import Heartbeat, Hello


@dataclass(frozen=True, slots=True)
class DeviceVerdict:
    """The registry's answer to a HELLO: may this device talk to us, and with which key."""

    accepted: bool
    key: bytes | None = None
    reason: str = ""


@dataclass
class LinkCounters:
    """Link quality, cumulative over the reader's life (across reconnects)."""

    port_openings: int = 0
    open_failures: int = 0
    port_errors: int = 0
    bytes_received: int = 0
    frames_accepted: int = 0
    rejections: dict[str, int] = field(default_factory=dict)
    naks_sent: int = 0
    resyncs_sent: int = 0
    committed: int = 0
    verdicts: dict[str, int] = field(default_factory=dict)
    duplicates: int = 0
    gaps_seen: int = 0
    gaps_reported: int = 0
    sessions_started: int = 0
    sessions_refused: int = 0
    auth_failures: int = 0
    offline_transitions: int = 0

    @property
    def reconnects(self) -> int:
        return max(0, self.port_openings - 1)

    def add_verdict(self, verdict: str) -> None:
        self.committed += 1
        self.verdicts[verdict] = self.verdicts.get(verdict, 0) + 1

    def add_rejections(self, rejections: dict[str, int]) -> None:
        for reason, count in rejections.items():
            self.rejections[reason] = self.rejections.get(reason, 0) + count


class LinkSink(Protocol):
    def device_hello(self, hello: Hello, boot_id: int) -> DeviceVerdict:
        """Is this device known and allowed here, and what is its key (None: no key)?"""

    def session_refused(self, hello: Hello, reason: str) -> None:
        """A session was refused (unknown device, wrong key, failed challenge): alert the pit."""

    def last_committed_seq(self, boot_id: int) -> int:
        """Highest seq committed (or resolved by a pit boss) for this boot; 0 when none."""

    def already_committed(self, boot_id: int, seq: int) -> bool:
        """Whether (device, boot_id, seq) is in the durable store."""

    def commit(self, boot_id: int, seq: int, message: Message) -> str:
        """Record the event durably under (device, boot_id, seq); return a verdict word.

        The link ACKs only after this returns, so it must not return before the commit. If it
        raises, the reader stops without ACKing; its supervisor restarts it and the shoe resends.
        """

    def heartbeat(self, boot_id: int, heartbeat: Heartbeat) -> None:
        """The device's own status (lid, tamper, sensor, queue depth)."""

    def open_gap(self, boot_id: int, first_missing: int, last_missing: int) -> None:
        """Events the device could not resend: rounds wait until a pit boss resolves the gap."""

    def offline(self) -> None:
        """Three heartbeats missed: the shoe is offline."""

    def online(self) -> None:
        """The shoe is heard from again."""

    def link_counters(self, counters: LinkCounters) -> None:
        """Periodic link-quality figures."""
