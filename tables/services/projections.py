"""Projections written in the same transaction as the events: the round row and the alerts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils import timezone

from tables import games
from tables.log.chain import json_ready
from tables.models import Alert, Round, Table, TableEvent

ROUND_CLOSED_EVENT = "table.round_closed"
ROUND_STATUS = {
    games.ROUND_OPEN: Round.Status.OPEN,
    games.ROUND_SETTLED: Round.Status.SETTLED,
    games.ROUND_CLOSED: Round.Status.CLOSED,
    games.ROUND_VOIDED: Round.Status.VOIDED,
}


ROUND_PROJECTION_FIELDS = ("state", "status", "last_seq", "closed_at")


def project_round(round_: Round, state: Any, rows: Sequence[TableEvent], table: Table) -> None:
    """Project and save the round row (the rebuild's way; appends write it with their events)."""
    round_.save(update_fields=set_round_projection(round_, state, rows, table))


def set_round_projection(
    round_: Round, state: Any, rows: Sequence[TableEvent], table: Table
) -> tuple[str, ...]:
    """Set the round row's projected columns from the engine state; return their names."""
    binding = games.binding_for(table.game)
    status = binding.round_status(state)
    round_.state = json_ready(binding.audit_view(state))
    if any(row.type == ROUND_CLOSED_EVENT for row in rows):
        status = games.ROUND_CLOSED
    if round_.status != Round.Status.CLOSED:  # the engine knows settled; the floor closes it
        round_.status = ROUND_STATUS.get(status, round_.status)
    round_.last_seq = rows[-1].seq if rows else round_.last_seq
    if status in games.ROUND_FINISHED and round_.closed_at is None:
        round_.closed_at = rows[-1].recorded_at if rows else timezone.now()
    return ROUND_PROJECTION_FIELDS


def project_alerts(table: Table, rows: Sequence[TableEvent]) -> None:
    alerts = []
    for row in rows:
        if row.type == "alert.raised":
            alerts.append(alert_from(table, row))
        elif row.type == "alert.acknowledged":
            Alert.objects.filter(event_id=row.payload["alert_event_id"]).update(
                acknowledged_by_id=row.actor_id, acknowledged_at=row.recorded_at
            )
    Alert.objects.bulk_create(alerts)


def alert_from(table: Table, row: TableEvent) -> Alert:
    payload = row.payload
    details = {key: value for key, value in payload.items() if key not in {"code", "message"}}
    return Alert(
        table=table,
        round=row.round,
        event=row,
        code=str(payload.get("code", "alert")),
        message=str(payload.get("message", payload.get("code", ""))),
        details=details,
        raised_at=row.recorded_at,
    )
