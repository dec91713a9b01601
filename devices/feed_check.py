"""Tells the tables app when a shoe deals a table's cards, and when its feed holds the round."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection

from devices.models import Device, DeviceBinding, DeviceGap, MisreadHold
from tables.card_feeds import StatusStatement

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


def _status_sql() -> str:
    binding, device = DeviceBinding._meta.db_table, Device._meta.db_table
    hold, gap = MisreadHold._meta.db_table, DeviceGap._meta.db_table
    bound = "b.table_id = %s AND b.ended_at IS NULL AND b.approved_at IS NOT NULL"
    return (
        f"SELECT EXISTS(SELECT 1 FROM {binding} b JOIN {device} d ON d.id = b.device_id "
        f"WHERE {bound} AND d.status = %s AND d.online = %s), "
        f"EXISTS(SELECT 1 FROM {hold} h WHERE h.table_id = %s AND h.resolved_at IS NULL), "
        f"EXISTS(SELECT 1 FROM {gap} g JOIN {binding} b ON b.device_id = g.device_id "
        f"WHERE {bound} AND g.resolved_at IS NULL)"
    )


_STATUS_SQL: list[str] = []


def feed_status(table_id: int) -> tuple[bool, str | None]:
    """`online_shoe_feeds` and `shoe_hold_reason` in one statement, written once: the policy
    asks on every command, so it costs one round trip and no query building."""
    with connection.cursor() as cursor:
        cursor.execute(status_sql(), status_params(table_id))
        return decode_status(cursor.fetchone())


def status_sql() -> str:
    if not _STATUS_SQL:
        _STATUS_SQL.append(_status_sql())
    return _STATUS_SQL[0]


def status_params(table_id: int) -> tuple[int | str | bool, ...]:
    return (table_id, Device.Status.ACTIVE, True, table_id, table_id)


def decode_status(row: Sequence[object]) -> tuple[bool, str | None]:
    feeds, misread, gap = row
    return bool(feeds), MISREAD_REASON if misread else GAP_REASON if gap else None


def feed_status_statement() -> StatusStatement:
    """The same question as a statement the table lock sends with itself (one round trip)."""
    return StatusStatement(status_sql(), status_params, decode_status)
