"""Projections written in the same transaction as the events: the round row, and the
projectors of the alerts, the seats and each game's own (tables.services.projectors)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils import timezone

from tables import games
from tables.log.chain import json_ready
from tables.models import Alert, Round, Seat, Table, TableEvent
from tables.services import projectors
from tables.services.projectors import Projection

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


# A service's own fact that raises an alert: a shoe incident (devices/registry/alerts.py).
ALERTING_PREFIXES = ("device.",)
ALERT_FIELDS = ("table", "round", "code", "message", "details", "raised_at")
ACKNOWLEDGED_FIELDS = ("acknowledged_by", "acknowledged_at")


def project_alerts(projection: Projection, rows: Sequence[TableEvent]) -> None:
    """`alert.raised` (an engine's) and a shoe incident raise an alert; `alert.acknowledged`
    marks it. Written as an upsert on the alert's event, so the rebuild keeps every alert's id
    (a shoe incident points at it)."""
    table = projection.table
    alerts = []
    for row in rows:
        if row.type == "alert.acknowledged":
            Alert.objects.filter(event_id=row.payload["alert_event_id"]).update(
                acknowledged_by_id=row.actor_id, acknowledged_at=row.recorded_at
            )
        elif row.type == "alert.raised" or is_alerting_incident(row):
            alerts.append(alert_from(table, row))
    if alerts:
        Alert.objects.bulk_create(
            alerts,
            update_conflicts=True,
            unique_fields=("event",),
            update_fields=(*ALERT_FIELDS, *ACKNOWLEDGED_FIELDS),
        )


def is_incident(row: TableEvent) -> bool:
    """A shoe incident's fact (it carries the alert's code); other `device.` facts (a misread
    resolved, say) record what was done about one."""
    return row.type.startswith(ALERTING_PREFIXES) and "code" in row.payload


def is_alerting_incident(row: TableEvent) -> bool:
    return is_incident(row) and row.payload.get("alert", True) is not False


def alert_from(table: Table, row: TableEvent) -> Alert:
    payload = row.payload
    details = {
        key: value for key, value in payload.items() if key not in {"code", "message", "alert"}
    }
    return Alert(
        table=table,
        round_id=row.round_id,
        event=row,
        code=str(payload.get("code", "alert")),
        message=str(payload.get("message", payload.get("code", ""))),
        details=details,
        raised_at=row.recorded_at,
    )


def _keep_alerts(table: Table) -> None:
    """Alerts are upserted on their events, never deleted: a rebuild keeps their ids."""


SEAT_EVENTS = frozenset({"table.player_seated", "table.chips_added", "table.player_left"})


def project_seats(projection: Projection, rows: Sequence[TableEvent]) -> None:
    """Who sits where with which chips; chips bought during a hand (`pending`) play from the
    next one (tables.services.seating)."""
    for row in rows:
        data = row.payload
        place = Seat.objects.select_for_update().get(table=projection.table, number=data["seat"])
        if row.type == "table.player_left":
            place.player_label, place.stack, place.pending_chips = "", 0, 0
        elif row.type == "table.player_seated":
            amount = int(data["buy_in"])
            place.player_label = data["player"]
            place.stack, place.pending_chips = (0, amount) if data.get("pending") else (amount, 0)
        elif data.get("pending"):
            place.pending_chips += int(data["amount"])
        else:
            place.stack += int(data["amount"])
        place.save(update_fields=["player_label", "stack", "pending_chips"])


def _empty_seats(table: Table) -> None:
    Seat.objects.filter(table=table).update(player_label="", stack=0, pending_chips=0)


def project_game(projection: Projection, rows: Sequence[TableEvent]) -> None:
    """A game's own projection of its engine's events (Stud: the stacks after a hand)."""
    binding = games.binding_for(projection.table.game)
    if binding.project_table is not None and projection.state is not None:
        binding.project_table(projection.table, projection.state, rows)


def register_projectors() -> None:
    projectors.register(
        projectors.Projector(
            "alerts",
            frozenset({"alert.raised", "alert.acknowledged"}),
            project_alerts,
            _keep_alerts,
            prefixes=ALERTING_PREFIXES,
        )
    )
    projectors.register(projectors.Projector("seats", SEAT_EVENTS, project_seats, _empty_seats))
    projectors.register(
        projectors.Projector(
            "game", frozenset(), project_game, lambda table: None, engine_events=True
        )
    )
