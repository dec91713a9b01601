"""table_command: run one engine command on a table, the way every writer does.

Lock the table row, load the engine state, let the engine decide, append the events with
the next seq and chained hash, update the projections, and publish a change notice on commit.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from tables import games
from tables.engine.errors import NotAllowedNowError
from tables.models import Round, Table, TableEvent
from tables.services import engine_state, live
from tables.services.append import NewFact, append_facts
from tables.services.projections import ROUND_CLOSED_EVENT, project_alerts, project_round


@dataclass(frozen=True)
class CommandOutcome:
    table: Table
    round: Round | None
    events: list[TableEvent]
    state: Any


def lock_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise NotAllowedNowError("There is no such table.", code="table_not_found") from None


current_round = engine_state.current_round


def table_command(
    *,
    table_id: int,
    command: Any,
    actor: User | None,
    source: str,
    occurred_at: datetime | None = None,
    idempotency_key: str | None = None,
    preamble: tuple[NewFact, ...] = (),
) -> CommandOutcome:
    """Decide and record `command` on the table. Takes the table row lock.

    Raises the engine's RuleError (nothing recorded) when the rules refuse the command.
    `preamble` facts (an approval, say) are appended just before the engine's events.
    """
    with transaction.atomic():
        table = lock_table(table_id)
        binding = games.binding_for(table.game)
        before = engine_state.snapshot(table)
        events = binding.engine.decide(before.state, command)
        state = before.state
        for event in events:
            state = binding.engine.evolve(state, event)
        round_ = before.round
        if any(event.type == binding.round_opened_event for event in events):
            round_ = start_round_row(table, round_, actor)
        facts = [*preamble, *(NewFact(event.type, dict(event.data)) for event in events)]
        rows = record(table, round_, facts, actor, source, occurred_at, idempotency_key)
        if round_ is not None:
            project_round(round_, state, rows, table)
        if binding.project_table is not None:
            binding.project_table(table, state, rows)
        engine_state.remember(table, state, round_)
        return CommandOutcome(table=table, round=round_, events=rows, state=state)


def start_round_row(table: Table, in_play: Round | None, actor: User | None) -> Round:
    """The Round row for a round the engine just opened. The caller holds the table lock."""
    if table.status != Table.Status.OPEN:
        raise NotAllowedNowError("Open the table before starting a round.", code="table_closed")
    if in_play is not None and in_play.status != Round.Status.SETTLED:
        raise NotAllowedNowError("A round is already in play at this table.", code="round_in_play")
    if in_play is not None:
        close_settled_round(table, in_play, actor)
    last = Round.objects.filter(table=table).aggregate(n=Max("number"))["n"] or 0
    return Round.objects.create(table=table, number=last + 1, opened_at=timezone.now())


def close_settled_round(table: Table, round_: Round, actor: User | None) -> None:
    """Append `table.round_closed` and project it. The caller holds the table lock."""
    fact = NewFact(ROUND_CLOSED_EVENT, {"round": round_.number})
    rows = record(table, round_, [fact], actor, TableEvent.Source.SYSTEM, None, None)
    round_.status = Round.Status.CLOSED
    round_.closed_at = rows[-1].recorded_at
    round_.last_seq = rows[-1].seq
    round_.save(update_fields=["status", "closed_at", "last_seq"])


def record(
    table: Table,
    round_: Round | None,
    facts: list[NewFact],
    actor: User | None,
    source: str,
    occurred_at: datetime | None,
    idempotency_key: str | None,
) -> list[TableEvent]:
    """Append, project alerts, save the head, and publish after commit. Lock held by caller."""
    if not facts:
        return []
    rows = append_facts(
        table=table,
        round_=round_,
        facts=facts,
        actor=actor,
        source=source,
        occurred_at=occurred_at,
        idempotency_key=idempotency_key,
    )
    table.save(update_fields=["head_seq", "head_hash"])
    project_alerts(table, rows)
    notice = {
        "table": table.pk,
        "seq": table.head_seq,
        "round": round_.number if round_ else None,
        "types": [row.type for row in rows],
    }
    transaction.on_commit(lambda: live.publish(table.pk, notice))
    return rows
