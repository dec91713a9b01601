"""The pit boss acknowledges an alert; the acknowledgement is itself a fact on the log."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from tables import policy
from tables.engine.errors import NotAllowedNowError
from tables.models import Alert, TableEvent
from tables.services.append import NewFact
from tables.services.commands import lock_table, record


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
