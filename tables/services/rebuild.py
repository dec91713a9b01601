"""Rebuild a table's projections from its log alone: its rounds' rows and everything the
registered projectors write (alerts, seats and stacks, shoe incidents, slips).

Engine events are projected with the game's state after them, custody events with the custody
state of their shift after them (the pure custody fold, as the services admitted them): a log
whose custody the rules refuse is not projected (`CustodyRefusedError`, nothing changes)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from tables import games
from tables.engine.custody.codec import is_custody_event
from tables.engine.game import Event
from tables.models import Round, Table, TableEvent
from tables.services import engine_state, projectors
from tables.services.commands import lock_table
from tables.services.custody.replay import CustodyReplay
from tables.services.event_types import is_engine_event
from tables.services.projections import project_round


def rebuild_projections(*, table_id: int) -> int:
    """Project the table's whole log again, in order, through the same projectors as the live
    appends, each event with the engine state after it. Locks the table.

    Returns the number of rounds rebuilt. Slow by design (one save per event): it is a
    repair and verification tool, not a hot path.
    """
    with transaction.atomic():
        table = lock_table(table_id)
        projectors.reset(table)
        rounds = _rebuild_log(table)
        engine_state.forget(table.pk)
        return rounds


def _rebuild_log(table: Table) -> int:
    engine = games.binding_for(table.game).engine
    rounds = {round_.pk: round_ for round_ in Round.objects.filter(table=table)}
    state: Any = engine_state.initial_state(table)
    custody = CustodyReplay(table)
    rebuilt: set[int] = set()
    for row in TableEvent.objects.filter(table=table).order_by("seq").iterator(2000):
        engine_event = is_engine_event(row.type)
        projected: Any = None
        if engine_event:
            state = projected = engine.evolve(state, Event(row.type, row.payload))
        elif is_custody_event(row.type):
            projected = custody.fold(row.seq, row.type, row.payload)
        if row.round_id is not None:
            round_ = rounds[row.round_id]
            if row.round_id not in rebuilt:
                round_.status, round_.closed_at = Round.Status.OPEN, None
                rebuilt.add(row.round_id)
            project_round(round_, state, [row], table)
        projectors.project(projectors.Projection(table, projected), [row])
    return len(rebuilt)
