"""Verify a table's log: re-compute every hash, replay every round, compare with projections.

Read-only; used by `verify_log`, by the audit report and by tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from tables import games
from tables.engine.errors import RuleError
from tables.engine.game import Event
from tables.log.chain import GENESIS_HASH, ChainedFact, chain_hash, json_ready
from tables.models import Round, Table, TableEvent
from tables.services.engine_state import initial_state
from tables.services.event_types import is_engine_event


@dataclass
class TableVerification:
    table: str
    events_checked: int = 0
    rounds_replayed: int = 0
    head_seq: int = 0
    head_hash: str = GENESIS_HASH
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "events_checked": self.events_checked,
            "rounds_replayed": self.rounds_replayed,
            "head_seq": self.head_seq,
            "head_hash": self.head_hash,
            "ok": self.ok,
            "problems": list(self.problems),
        }


def verify_table(table: Table, *, since: datetime | None = None) -> TableVerification:
    """The chain is always checked from the first event (a link needs its predecessor);
    `since` limits which rounds are compared with their projections."""
    result = TableVerification(table=table.name)
    table.refresh_from_db(fields=["head_seq", "head_hash"])
    states = _check_chain_and_replay(table, result)
    _compare_rounds(table, states, result, since)
    if result.ok and (result.head_seq, result.head_hash) != (table.head_seq, table.head_hash):
        result.problems.append(
            f"table {table.name}: the stored head (seq {table.head_seq}) does not match the log"
        )
    return result


# Read as plain tuples: model instances (and the rounds' big state JSON) would triple the cost.
LOG_COLUMNS = (
    "seq", "round__number", "type", "payload", "schema_version", "actor_id", "source",
    "occurred_at", "recorded_at", "idempotency_key", "prev_hash", "hash",
)  # fmt: skip


def _check_chain_and_replay(table: Table, result: TableVerification) -> dict[int, Any]:
    """Walk the log once: check each link, and fold engine events; states at round ends."""
    binding = games.binding_for(table.game)
    state = initial_state(table)
    states: dict[int, Any] = {}
    expected_prev, expected_seq = GENESIS_HASH, 1
    rows = TableEvent.objects.filter(table=table).order_by("seq").values_list(*LOG_COLUMNS)
    for row in rows.iterator(chunk_size=2000):
        seq, round_number, kind, payload, *_, digest = row
        if result.ok:
            _check_link(table, row, expected_prev, expected_seq, result)
        expected_prev, expected_seq = digest, seq + 1
        result.events_checked += 1
        result.head_seq, result.head_hash = seq, digest
        if is_engine_event(kind):
            try:
                state = binding.engine.evolve(state, Event(kind, payload))
            except (RuleError, KeyError, ValueError, TypeError) as error:
                result.problems.append(
                    f"table {table.name} seq {seq}: the engine cannot replay it ({error})"
                )
                return states
        if round_number is not None:
            states[round_number] = state
    return states


def _check_link(
    table: Table, row: tuple[Any, ...], expected_prev: str, expected_seq: int,
    result: TableVerification,
) -> None:  # fmt: skip
    (
        seq,
        round_number,
        kind,
        payload,
        version,
        actor,
        source,
        occurred,
        recorded,
        key,
        prev,
        digest,
    ) = row
    where = f"table {table.name} seq {seq}"
    if seq != expected_seq:
        result.problems.append(f"{where}: expected seq {expected_seq} (a gap or a repeat)")
    elif prev != expected_prev:
        result.problems.append(f"{where}: prev_hash does not match the previous event's hash")
    else:
        fact = ChainedFact(
            table.pk, seq, round_number, kind, payload, version, actor, source, occurred, recorded,
            key,
        )  # fmt: skip
        if chain_hash(prev, fact, stored=True) != digest:
            result.problems.append(f"{where}: the content does not match its hash (edited)")


def _compare_rounds(
    table: Table, states: dict[int, Any], result: TableVerification, since: datetime | None
) -> None:
    binding = games.binding_for(table.game)
    rounds = Round.objects.filter(table=table).order_by("number")
    if since is not None:
        rounds = rounds.filter(opened_at__gte=since)
    for round_ in rounds:
        if round_.number not in states:
            continue
        result.rounds_replayed += 1
        replayed = json_ready(binding.audit_view(states[round_.number]))
        if replayed != round_.state:
            result.problems.append(
                f"table {table.name} round {round_.number}: the replay differs from its projection"
            )
