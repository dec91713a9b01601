"""table_command: run one engine command on a table, the way every writer does.

Lock the table row, load the engine state, let the engine decide, append the events with
the next seq and chained hash, update the projections, and publish a change notice on commit.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from tables import games, policy
from tables.engine.errors import InvalidInputError, NotAllowedNowError
from tables.models import Round, Table, TableEvent
from tables.services import engine_state, live, projectors, snapshots
from tables.services.append import NewFact, chain_facts
from tables.services.append_statements import lock_table as lock_table  # the one lock, re-exported
from tables.services.append_statements import lock_table_with_facts, write_append
from tables.services.projections import ROUND_CLOSED_EVENT, set_round_projection


@dataclass(frozen=True)
class CommandOutcome:
    table: Table
    round: Round | None
    events: list[TableEvent]
    state: Any
    # What the policy read of the table under the lock (its feed, the dealer's assignment):
    # the answer's `allowed` list is asked from them rather than read again after the commit.
    facts: policy.TableFacts | None = None


@dataclass(frozen=True)
class RoundProjection:
    """A round row to update with an append: `project` sets its columns from the new rows
    and names them, so they are written with the events."""

    round: Round
    project: Callable[[list[TableEvent]], Sequence[str]]


current_round = engine_state.current_round
latest_round = engine_state.latest_round


def table_command(
    *,
    table_id: int,
    locked: Table | None = None,
    command: Any = None,
    command_for: Callable[[Table, policy.TableFacts | None], Any] | None = None,
    in_round: Round | None = None,
    actor: User | None,
    source: str,
    occurred_at: datetime | None = None,
    idempotency_key: str | None = None,
    preamble: tuple[NewFact, ...] = (),
    approved: bool = False,
    checked: bool = False,
) -> CommandOutcome:
    """Decide and record `command` on the table. Takes the table row lock.

    The policy is asked first, under the lock (who sends it, a held round, a shoe feeding the
    table); `approved` says a second person's approval runs it, `checked` that the calling
    service already asked for its own command (opening a round). Raises PolicyError or the
    engine's RuleError (nothing recorded) on a refusal, and refuses any command at a closed
    table. `command_for`, instead of `command`, makes the command from the locked table and
    what the lock read for the policy (the next round's, say). `in_round` is the closed round
    the events belong to when none is in play (a correction of its payout). `preamble` facts
    (an approval, say) are appended just before the engine's events. `locked` is the table
    when the caller already holds its lock (the shoe's reader): one lock per command.
    """
    head = (locked.head_seq, locked.head_hash) if locked is not None else None
    try:
        return _decide_and_record(
            table_id, locked, command, command_for, in_round, actor, source, occurred_at,
            idempotency_key, preamble, approved, checked, None, savepoint=True,
        )  # fmt: skip
    except BaseException:
        if locked is not None and head is not None:
            # The savepoint undid the rows; the caller's table goes on from the head it had.
            locked.head_seq, locked.head_hash = head
        raise


def _decide_and_record(
    table_id: int,
    locked: Table | None,
    command: Any,
    command_for: Callable[[Table, policy.TableFacts | None], Any] | None,
    in_round: Round | None,
    actor: User | None,
    source: str,
    occurred_at: datetime | None,
    idempotency_key: str | None,
    preamble: tuple[NewFact, ...],
    approved: bool,
    checked: bool,
    table_facts: policy.TableFacts | None,
    *,
    savepoint: bool,
) -> CommandOutcome:
    # Without `savepoint` the caller's own transaction, which a refusal ends, is the command's.
    with transaction.atomic(savepoint=savepoint):
        if locked is not None:
            table = locked
        else:
            table, table_facts = locked_with_facts(table_id, actor)
        if table.status != Table.Status.OPEN:
            raise NotAllowedNowError(
                "The table is closed: nothing is played at it until it is opened.",
                code="table_closed",
            )
        binding = games.binding_for(table.game)
        if command_for is not None:
            command = command_for(table, table_facts)
        before = engine_state.snapshot(table)
        if not checked:
            policy.check(
                actor, command_name(command), table, before.state,
                source=source, data=command_data(command), approved=approved,
                facts=table_facts,
            )  # fmt: skip
        events = binding.engine.decide(before.state, command)
        state = before.state
        for event in events:
            state = binding.engine.evolve(state, event)
        round_ = before.round if before.round is not None else in_round
        if any(event.type == binding.round_opened_event for event in events):
            round_ = start_round_row(table, round_, actor)
        facts = [*preamble, *(NewFact(event.type, dict(event.data)) for event in events)]
        projection = _round_projection(round_, state, table) if round_ is not None else None
        head_seq = table.head_seq + len(facts)
        stored = bool(facts) and snapshots.is_due(binding, before.stored_seq, head_seq, events)
        rows = record(
            table, round_, facts, actor, source, occurred_at, idempotency_key, projection,
            state, snapshot_state=state if stored else None,
        )  # fmt: skip
        engine_state.remember(table, state, round_, head_seq if stored else before.stored_seq)
        return CommandOutcome(
            table=table, round=round_, events=rows, state=state, facts=table_facts
        )


def locked_with_facts(table_id: int, actor: User | None) -> tuple[Table, policy.TableFacts]:
    """The table locked, with what the policy reads about it (in the lock's round trip)."""
    table, read = lock_table_with_facts(table_id, actor.pk if actor is not None else None)
    assignment = None if read.dealer_assigned is None or actor is None else (
        actor.pk, read.dealer_assigned
    )  # fmt: skip
    return table, policy.TableFacts(table.pk, read.feed_status, assignment)


def table_command_from_json(
    *,
    table_id: int,
    command_type: str,
    data: Any,
    actor: User | None,
    source: str = TableEvent.Source.TABLET,
    occurred_at: datetime | None = None,
    idempotency_key: str | None = None,
    check_body: Callable[[Table], None] | None = None,
) -> CommandOutcome:
    """A command as a tablet sends it (a name and a JSON object): the policy answers before
    the body is parsed, so a caller who may not send it learns nothing from its body.

    `check_body` is the caller's own check of the body against the table's game (the API's
    fields a command takes), asked right after the lock: the table is read by the lock
    alone, not once more before it."""
    with transaction.atomic():
        table, facts = locked_with_facts(table_id, actor)
        if check_body is not None:
            check_body(table)
        state = engine_state.snapshot(table).state
        body = data if isinstance(data, dict) else None
        policy.check(actor, command_type, table, state, source=source, data=body, facts=facts)
        if body is None:
            raise InvalidInputError("The command's data must be an object.", code="invalid_input")
        if body.get("source", source) != source:
            # Only the shoe's own reader may say a card came from the shoe.
            raise InvalidInputError(
                "A tablet command's source is the tablet.", code="invalid_source"
            )
        command = games.binding_for(table.game).command_from_json(command_type, body)
        # This transaction is the command's own: a refusal ends it, so no savepoint is needed.
        return _decide_and_record(
            table.pk, table, command, None, None, actor, source, occurred_at,
            idempotency_key, (), False, True, facts, savepoint=False,
        )  # fmt: skip


def command_name(command: Any) -> str:
    """The name a command is declared under: its `type`, a betting action's `kind`, or its
    class name in snake case (RecordCard -> record_card)."""
    for attribute in ("type", "kind"):
        value = getattr(command, attribute, None)
        if isinstance(value, str):
            return value
    name = type(command).__name__
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")


def command_data(command: Any) -> dict[str, Any] | None:
    if not dataclasses.is_dataclass(command) or isinstance(command, type):
        return None
    return {field.name: getattr(command, field.name) for field in dataclasses.fields(command)}


def _round_projection(round_: Round, state: Any, table: Table) -> RoundProjection:
    def project(rows: list[TableEvent]) -> Sequence[str]:
        return set_round_projection(round_, state, rows, table)

    return RoundProjection(round_, project)


def start_round_row(table: Table, in_play: Round | None, actor: User | None) -> Round:
    """The Round row for a round the engine just opened. The caller holds the table lock."""
    if table.status != Table.Status.OPEN:
        raise NotAllowedNowError("Open the table before starting a round.", code="table_closed")
    if in_play is not None and in_play.status != Round.Status.SETTLED:
        raise NotAllowedNowError("A round is already in play at this table.", code="round_in_play")
    if in_play is not None:
        close_settled_round(table, in_play, actor)
        # Rounds are opened here alone, under the table lock, one at a time: the one still in
        # play is the table's latest.
        last = in_play.number
    else:
        last = Round.objects.filter(table=table).aggregate(n=Max("number"))["n"] or 0
    return Round.objects.create(table=table, number=last + 1, opened_at=timezone.now())


def close_settled_round(table: Table, round_: Round, actor: User | None) -> None:
    """Append `table.round_closed` and project it. The caller holds the table lock."""

    def closed(rows: list[TableEvent]) -> Sequence[str]:
        round_.status = Round.Status.CLOSED
        round_.closed_at = rows[-1].recorded_at
        round_.last_seq = rows[-1].seq
        return ("status", "closed_at", "last_seq")

    fact = NewFact(ROUND_CLOSED_EVENT, {"round": round_.number})
    projection = RoundProjection(round_, closed)
    record(table, round_, [fact], actor, TableEvent.Source.SYSTEM, None, None, projection)


def record(
    table: Table,
    round_: Round | None,
    facts: list[NewFact],
    actor: User | None,
    source: str,
    occurred_at: datetime | None,
    idempotency_key: str | None,
    projection: RoundProjection | None = None,
    state: Any = None,
    snapshot_state: Any = None,
) -> list[TableEvent]:
    """Append, save the head (and `projection`, and a snapshot of `snapshot_state`, the engine
    state after `facts`), run the registered projectors (with the engine `state` after the
    facts, when they are the engine's), and publish after commit.

    The caller holds the table lock."""
    if not facts:
        return []
    rows = chain_facts(
        table=table,
        round_=round_,
        facts=facts,
        actor=actor,
        source=source,
        occurred_at=occurred_at,
        idempotency_key=idempotency_key,
    )
    stored = None if snapshot_state is None else snapshots.snapshot_row(table, snapshot_state)
    if projection is None:
        write_append(table, rows, snapshot=stored)
    else:
        write_append(table, rows, projection.round, projection.project(rows), snapshot=stored)
    projectors.project(projectors.Projection(table, state), rows)
    notice = {
        "table": table.pk,
        "seq": table.head_seq,
        "round": round_.number if round_ else None,
        "types": [row.type for row in rows],
    }
    transaction.on_commit(lambda: live.publish(table.pk, notice))
    return rows
