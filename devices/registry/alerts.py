"""Device incidents, and the pit's alert for them on the table the shoe serves.

Alerts on a table are projected from `alert.raised` events, which only an engine writes. A shoe
incident is a service fact (`device.<kind>`, skipped on replay) with the Alert row pointing at
it, so the pit sees it with the table's other alerts and the log keeps it in the chain.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from devices.models import Device, DeviceIncident
from tables.models import Table, TableEvent
from tables.services.append import NewFact
from tables.services.commands import current_round, lock_table, record
from tables.services.projections import alert_from


def raise_device_alert(
    *,
    device: Device,
    table_id: int | None,
    kind: str,
    message: str,
    details: dict[str, Any] | None = None,
    alert: bool = True,
) -> DeviceIncident:
    """Record the incident; when the shoe serves a table and `alert`, alert that table's pit."""
    details = dict(details or {})
    with transaction.atomic():
        table_alert = None
        table: Table | None = None
        if table_id is not None:
            table = lock_table(table_id)
            if alert:
                table_alert = _table_alert(table, device, kind, message, details)
        return DeviceIncident.objects.create(
            device=device,
            kind=kind,
            message=message,
            details=details,
            table=table,
            alert=table_alert,
            occurred_at=timezone.now(),
        )


def _table_alert(
    table: Table, device: Device, kind: str, message: str, details: dict[str, Any]
) -> Any:
    """Append the `device.<kind>` fact and project its alert. The caller holds the table lock."""
    payload = {"code": f"shoe_{kind}", "message": message, "serial": device.serial, **details}
    rows = record(
        table,
        current_round(table),
        [NewFact(f"device.{kind}", payload)],
        None,
        TableEvent.Source.SHOE,
        None,
        None,
    )
    table_alert = alert_from(table, rows[0])
    table_alert.save()
    return table_alert
