"""Heartbeat tracking: three intervals without a heartbeat and the shoe is offline."""

from devices.link.sink import LinkCounters, LinkSink


class Liveness:
    def __init__(
        self, sink: LinkSink, counters: LinkCounters, interval_s: float, missed_beats: int = 3
    ) -> None:
        self._sink = sink
        self._counters = counters
        self.interval_s = interval_s
        self.missed_beats = missed_beats
        self.online = False
        self._last_beat_at: float | None = None

    def beat(self, now: float) -> None:
        self._last_beat_at = now
        if not self.online:
            self.online = True
            self._sink.online()

    def check(self, now: float) -> None:
        if self._last_beat_at is None:
            return
        silent_for = now - self._last_beat_at
        if self.online and silent_for > self.missed_beats * self.interval_s:
            self.online = False
            self._counters.offline_transitions += 1
            self._sink.offline()
