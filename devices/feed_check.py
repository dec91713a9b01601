"""Tells the tables app when an online, bound, active shoe is dealing a table's cards."""

from __future__ import annotations

from devices.models import Device, DeviceBinding


def online_shoe_feeds(table_id: int) -> bool:
    return DeviceBinding.objects.filter(
        table_id=table_id,
        ended_at__isnull=True,
        approved_at__isnull=False,
        device__status=Device.Status.ACTIVE,
        device__online=True,
    ).exists()
