"""Rebuild a table's projections from its log alone (rounds' state and status, alerts)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from tables import games
from tables.engine.game import Event
from tables.models import Alert, Round, TableEvent
from tables.services import engine_state
from tables.services.commands import lock_table
from tables.services.event_types import is_engine_event
from tables.services.projections import project_alerts, project_round


def rebuild_projections(*, table_id: int) -> int:
    """Recompute every round row and alert of the table from its log. Locks the table.

    Returns the number of rounds rebuilt. Slow by design (one save per event): it is a
    repair and verification tool, not a hot path.
    """
    with transaction.atomic():
        table = lock_table(table_id)
        engine = games.binding_for(table.game).engine
        Alert.objects.filter(table=table).delete()
        rounds = {round_.pk: round_ for round_ in Round.objects.filter(table=table)}
        state: Any = engine_state.initial_state(table)
        rebuilt: set[int] = set()
        for row in TableEvent.objects.filter(table=table).order_by("seq").iterator(2000):
            if is_engine_event(row.type):
                state = engine.evolve(state, Event(row.type, row.payload))
            if row.type.startswith("alert."):
                project_alerts(table, [row])
            if row.round_id is None:
                continue
            round_ = rounds[row.round_id]
            if row.round_id not in rebuilt:
                round_.status, round_.closed_at = Round.Status.OPEN, None
                rebuilt.add(row.round_id)
            project_round(round_, state, [row], table)
        engine_state.forget(table.pk)
        return len(rebuilt)
