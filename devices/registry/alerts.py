"""Device incidents, and the pit's alert for them on the table the shoe serves.

An incident at a table is a service fact on its log (`device.<kind>`, skipped on replay); the
projectors make its `DeviceIncident` row and, unless the fact says `alert: false`, the table's
alert, in the same transaction, and the rebuild makes them again from the same fact. A shoe
that serves no table has no log: its incident is a row of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from devices.models import Device, DeviceIncident
from tables.models import Alert, Table, TableEvent
from tables.services import projectors
from tables.services.append import NewFact
from tables.services.commands import current_round, lock_table, record
from tables.services.projections import is_incident

# The payload keys the fact adds around the incident's own details.
FACT_KEYS = frozenset({"code", "message", "serial", "alert"})


def raise_device_alert(
    *,
    device: Device,
    table_id: int | None = None,
    table: Table | None = None,
    kind: str,
    message: str,
    details: dict[str, Any] | None = None,
    alert: bool = True,
) -> DeviceIncident:
    """Record the incident; when the shoe serves a table (`table`, already locked by the
    caller, or `table_id`, locked here), on that table's log, alerting its pit if `alert`."""
    details = dict(details or {})
    with transaction.atomic():
        if table is None and table_id is not None:
            table = lock_table(table_id)
        if table is None:
            return DeviceIncident.objects.create(
                device=device,
                kind=kind,
                message=message,
                details=details,
                occurred_at=timezone.now(),
            )
        payload = {"code": f"shoe_{kind}", "message": message, "serial": device.serial, **details}
        if not alert:
            payload["alert"] = False
        fact = NewFact(f"device.{kind}", payload)
        rows = record(table, current_round(table), [fact], None, TableEvent.Source.SHOE, None, None)
        return DeviceIncident.objects.get(event=rows[0])


def project_incidents(projection: projectors.Projection, rows: Sequence[TableEvent]) -> None:
    """The incident row of each `device.<kind>` fact, pointing at the alert projected from the
    same fact (the alerts' projector runs first). An upsert on the fact keeps ids on a rebuild."""
    serials = {str(row.payload.get("serial", "")) for row in rows}
    devices = {device.serial: device for device in Device.objects.filter(serial__in=serials)}
    alerts = dict(
        Alert.objects.filter(event__in=[row.pk for row in rows]).values_list("event_id", "pk")
    )
    incidents = [
        DeviceIncident(
            device=devices[str(row.payload.get("serial", ""))],
            kind=row.type.removeprefix("device."),
            message=str(row.payload.get("message", "")),
            details={k: v for k, v in row.payload.items() if k not in FACT_KEYS},
            table=projection.table,
            alert_id=alerts.get(row.pk),
            event=row,
            occurred_at=row.recorded_at,
        )
        for row in rows
        if is_incident(row) and str(row.payload.get("serial", "")) in devices
    ]
    DeviceIncident.objects.bulk_create(
        incidents,
        update_conflicts=True,
        unique_fields=("event",),
        update_fields=("device", "kind", "message", "details", "table", "alert", "occurred_at"),
    )


def register_projector() -> None:
    projectors.register(
        projectors.Projector(
            "device_incidents",
            frozenset(),
            project_incidents,
            lambda table: None,  # upserted on their facts, never deleted: ids survive a rebuild
            prefixes=("device.",),
        )
    )
