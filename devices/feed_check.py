"""Tells the tables app when a shoe deals a table's cards, and when its feed holds the round."""

from __future__ import annotations

from django.db.models import Exists, OuterRef

from devices.models import Device, DeviceBinding, DeviceGap, MisreadHold
from tables.models import Table

MISREAD_REASON = (
    "the shoe could not read a card: the dealer enters it and a pit boss approves it "
    "before play goes on"
)
GAP_REASON = "events from the shoe are missing; a pit boss must resolve the gap"


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
        return MISREAD_REASON
    bound_devices = DeviceBinding.objects.filter(
        table_id=table_id, ended_at__isnull=True, approved_at__isnull=False
    ).values("device_id")
    if DeviceGap.objects.filter(device_id__in=bound_devices, resolved_at__isnull=True).exists():
        return GAP_REASON
    return None


def feed_status(table_id: int) -> tuple[bool, str | None]:
    """`online_shoe_feeds` and `shoe_hold_reason` in one query: the policy asks on every command."""
    table = OuterRef("pk")
    bound = {"ended_at__isnull": True, "approved_at__isnull": False}
    row = (
        Table.objects.filter(pk=table_id)
        .annotate(
            feeds=Exists(
                DeviceBinding.objects.filter(
                    table=table, device__status=Device.Status.ACTIVE, device__online=True, **bound
                )
            ),
            misread=Exists(MisreadHold.objects.filter(table=table, resolved_at__isnull=True)),
            gap=Exists(
                DeviceGap.objects.filter(
                    resolved_at__isnull=True,
                    device__in=DeviceBinding.objects.filter(table=table, **bound).values("device"),
                )
            ),
        )
        .values_list("feeds", "misread", "gap")
        .first()
    )
    if row is None:
        return False, None
    feeds, misread, gap = row
    return bool(feeds), MISREAD_REASON if misread else GAP_REASON if gap else None
