"""Link-quality counters of a shoe, summed over every reader run of its port."""

from __future__ import annotations

from datetime import datetime

from devices.link.sink import LinkCounters
from devices.models import Device, LinkQuality

COUNTER_FIELDS = (
    "frames_accepted",
    "duplicates",
    "naks_sent",
    "resyncs_sent",
    "reconnects",
    "gaps_reported",
    "auth_failures",
    "sessions_refused",
    "offline_transitions",
    "bytes_received",
    "committed",
)


class Accumulator:
    """A reader's counters start at zero; the stored totals are what earlier runs left plus them."""

    def __init__(self, serial: str) -> None:
        self.serial = serial
        self._baseline: dict[str, int] | None = None
        self._baseline_rejections: dict[str, int] = {}

    def store(self, counters: LinkCounters, now: datetime) -> LinkQuality | None:
        device = Device.objects.filter(serial=self.serial).first()
        if device is None:
            return None
        quality, _ = LinkQuality.objects.get_or_create(device=device)
        if self._baseline is None:
            self._baseline = {name: getattr(quality, name) for name in COUNTER_FIELDS}
            self._baseline_rejections = dict(quality.rejections)
        for name in COUNTER_FIELDS:
            setattr(quality, name, self._baseline[name] + getattr(counters, name))
        rejections = dict(self._baseline_rejections)
        for reason, count in counters.rejections.items():
            rejections[reason] = rejections.get(reason, 0) + count
        quality.rejections = rejections
        quality.updated_at = now
        quality.save()
        return quality
