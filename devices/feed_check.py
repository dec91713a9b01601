"""Tells the tables app when a shoe deals a table's cards, and when its feed holds the round."""

from __future__ import annotations

from devices.models import Device, DeviceBinding, DeviceGap, MisreadHold


def online_shoe_feeds(table_id: int) -> bool:
    return DeviceBinding.objects.filter(
        table_id=table_id,
        ended_at__isnull=True,
        approved_at__isnull=False,
        device__status=Device.Status.ACTIVE,
        device__online=True,
    ).exists()


def shoe_hold_reason(table_id: int) -> str | None:
    if MisreadHold.objects.filter(table_id=table_id, resolved_at__isnull=True).exists():
        return (
            "the shoe could not read a card: the dealer enters it and a pit boss approves it "
            "before play goes on"
        )
    bound_devices = DeviceBinding.objects.filter(
        table_id=table_id, ended_at__isnull=True, approved_at__isnull=False
    ).values("device_id")
    if DeviceGap.objects.filter(device_id__in=bound_devices, resolved_at__isnull=True).exists():
        return "events from the shoe are missing; a pit boss must resolve the gap"
    return None
