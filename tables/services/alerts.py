"""The pit boss acknowledges an alert; the acknowledgement is itself a fact on the log."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from tables import policy
from tables.engine.errors import NotAllowedNowError
from tables.models import Alert, TableEvent
from tables.services.append import NewFact
from tables.services.commands import current_round, lock_table, record
from tables.services.projections import alert_from

TABLET_CLOCK_ALERT = "tablet_clock_skew"


def alert_acknowledge(*, alert_id: int, by: User, note: str = "") -> Alert:
    """Locks the alert's table; an alert is acknowledged once."""
    alert = Alert.objects.filter(pk=alert_id).first()
    if alert is None:
        raise NotAllowedNowError("There is no such alert.", code="alert_not_found")
    with transaction.atomic():
        table = lock_table(alert.table_id)
        policy.check(by, "alert.acknowledge", table)
        alert.refresh_from_db()
        if alert.acknowledged_at is not None:
            raise NotAllowedNowError(
                "This alert was already acknowledged.", code="alert_already_acknowledged"
            )
        fact = NewFact(
            "alert.acknowledged",
            {"alert_event_id": alert.event_id, "code": alert.code, "note": note},
        )
        record(table, alert.round, [fact], by, TableEvent.Source.TABLET, None, None)
        alert.refresh_from_db()
    return alert


def tablet_clock_alert(*, table_id: int, by: User, offset_seconds: float) -> Alert | None:
    """Alert the pit that a tablet's clock is off. Locks the table; one open alert at a time.

    A service fact (`table.tablet_clock_skew`, skipped on replay) with its Alert row, so the
    engine's replay is untouched and the log still keeps it in the chain."""
    with transaction.atomic():
        table = lock_table(table_id)
        if Alert.objects.filter(
            table=table, code=TABLET_CLOCK_ALERT, acknowledged_at__isnull=True
        ).exists():
            return None
        payload = {
            "code": TABLET_CLOCK_ALERT,
            "message": f"The tablet's clock is {offset_seconds:+.0f} s off the server's.",
            "offset_ms": round(offset_seconds * 1000),  # the log takes no floats
            "dealer": by.get_username(),
        }
        fact = NewFact("table.tablet_clock_skew", payload)
        rows = record(table, current_round(table), [fact], by, TableEvent.Source.TABLET, None, None)
        alert = alert_from(table, rows[0])
        alert.save()
        return alert
