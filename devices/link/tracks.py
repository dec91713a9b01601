"""Per-boot delivery state on the host: what is committed, what was seen beyond it."""

from dataclasses import dataclass

from devices.codec.frames import next_seq, seq_is_after


@dataclass
class BootTrack:
    boot_id: int
    last_committed: int
    highest_seen: int = 0
    resyncs_for_gap: int = 0
    last_resync_at: float = float("-inf")
    gap_reported: bool = False

    @property
    def expected(self) -> int:
        return next_seq(self.last_committed)

    @property
    def gap_open(self) -> bool:
        return self.highest_seen != 0 and seq_is_after(self.highest_seen, self.last_committed)

    def committed(self, seq: int) -> None:
        self.last_committed = seq
        if not self.gap_open:
            self.resyncs_for_gap = 0
            self.gap_reported = False

    def saw_beyond(self, seq: int) -> bool:
        """Note a frame beyond the expected one; True when it opens a new gap."""
        opens = not self.gap_open
        if opens or seq_is_after(seq, self.highest_seen):
            self.highest_seen = seq
        return opens

    def adopt_resolution(self, sink_last: int) -> None:
        """A pit boss may have resolved a gap: the store's last seq moved past ours."""
        if seq_is_after(sink_last, self.last_committed):
            self.committed(sink_last)
