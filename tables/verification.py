"""Verify a table's log: re-compute every hash, replay every round and the custody of every
shift, compare with projections.

Used by `verify_log`, by the audit report and by tests. It changes nothing but, when asked,
records a verified checkpoint, with the engine state and the custody fold's states it had
there; from one, the next verification walks only the events after it (after the latest
snapshot at or before it, for a checkpoint without a kept state: services.snapshots_checkpoints).
Every stored snapshot the walk passes is compared with the replayed state.

The audit verifies every event of a floor at each shift end, so the work is kept lean
(docs/performance/reports.md). On PostgreSQL the log comes through one server-side cursor
as tuples with the two times already in canonical text (`to_char` in UTC, the exact text
`canonical_time` writes: building two Python datetimes per row cost more than hashing it),
and the replayed rounds are compared with their projections as jsonb by the database.
Elsewhere (SQLite) the same checks read through the ORM and compare in Python.

Custody events are folded by the pure custody rules, shift by shift, as the services admitted
them (services.custody.replay): a fact they refuse is a problem at its seq, and the slips'
projection is compared with the fold, so a custody payload altered and sealed again is found.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Generator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection, models, transaction

from tables import games
from tables.engine.custody.codec import is_custody_event
from tables.engine.custody.state_codec import OpenShifts
from tables.engine.errors import RuleError
from tables.engine.game import Event
from tables.log.chain import GENESIS_HASH, canonical_json, canonical_time, stored_chain_hash
from tables.models import EngineSnapshot, Round, Table, TableEvent
from tables.services.custody.replay import CustodyRefusedError, CustodyReplay
from tables.services.event_types import is_engine_event
from tables.services.snapshots_checkpoints import (
    StartingPoint,
    from_the_first_event,
    from_the_last_checkpoint,
    keep_checkpoint,
    kept_state,
)

# Rows fetched per round trip from the server-side cursor.
CHUNK_ROWS = 5000
# Replayed rounds sent per comparison statement (a Siete view is about 5 kB).
COMPARE_ROUNDS = 200
# Stored snapshots read back per comparison with the replay.
COMPARE_SNAPSHOTS = 200


@dataclass
class TableVerification:
    table: str
    events_checked: int = 0
    rounds_replayed: int = 0
    head_seq: int = 0
    head_hash: str = GENESIS_HASH
    # The walk began after this seq (0: the whole log).
    verified_from_seq: int = 0
    snapshots_compared: int = 0
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
            "verified_from_seq": self.verified_from_seq,
            "snapshots_compared": self.snapshots_compared,
            "ok": self.ok,
            "problems": list(self.problems),
        }


def verify_table(
    table: Table,
    *,
    since: datetime | None = None,
    from_checkpoint: bool = False,
    checkpoints_up_to: int | None = None,
    checkpoint: bool = False,
    checkpoint_at: int | None = None,
) -> TableVerification:
    """Check the chain from the first event or, with `from_checkpoint`, from the last verified
    checkpoint at or before `checkpoints_up_to` (default: any; a link needs its predecessor,
    and that one is trusted); replay the rounds walked and compare them with their projections
    (`since` limits which). With `checkpoint`, a sound result is recorded as a verified
    checkpoint at `checkpoint_at` (default: the head)."""
    result = TableVerification(table=table.name)
    table.refresh_from_db(fields=["head_seq", "head_hash"])
    # One transaction: the server-side cursor lives in it (no copy of the result is held).
    with transaction.atomic():
        if from_checkpoint:
            start = from_the_last_checkpoint(table, up_to_seq=checkpoints_up_to)
        else:
            start = from_the_first_event(table)
        result.verified_from_seq = result.head_seq = start.seq
        result.head_hash = start.head_hash
        result.problems.extend(start.problems)
        custody = CustodyReplay(table, after_seq=start.seq, kept=start.custody)
        keep_at = checkpoint_at if checkpoint else None
        states, kept = _check_chain_and_replay(table, result, start, custody, keep_at)
        _compare_rounds(table, states, result, since)
        if not custody.refused:  # past a refused fact the fold is no reference
            result.problems.extend(custody.slip_problems())
    if result.ok and (result.head_seq, result.head_hash) != (table.head_seq, table.head_hash):
        result.problems.append(
            f"table {table.name}: the stored head (seq {table.head_seq}) does not match the log"
        )
    if checkpoint and result.ok:
        at_seq = result.head_seq if checkpoint_at is None else min(checkpoint_at, result.head_seq)
        if kept is not None and kept[0] != at_seq:
            kept = None
        keep_checkpoint(
            table,
            seq=at_seq,
            verified_from_seq=start.seq,
            kept=None if kept is None else kept_state(table, kept[1], kept[2]),
        )
    return result


# A log row as the verifier reads it: the ChainedFact's fields in order, the times as
# canonical text, then the stored prev_hash and hash.
LogRow = tuple[
    int, int | None, str, Any, int, int | None, str, str, str, str | None, str, str
]  # fmt: skip
LOG_COLUMNS = (
    "seq", "round__number", "type", "payload", "schema_version", "actor_id", "source",
    "occurred_at", "recorded_at", "idempotency_key", "prev_hash", "hash",
)  # fmt: skip


# (seq, engine state, the custody fold's open shifts) where the walk passed a seq.
Kept = tuple[int, Any, OpenShifts]


def _check_chain_and_replay(
    table: Table,
    result: TableVerification,
    start: StartingPoint,
    custody: CustodyReplay,
    keep_at: int | None,
) -> tuple[dict[int, Any], Kept | None]:
    """Walk the log once: check each link, fold engine events (states at round ends) and
    custody events (the first fact the custody rules refuse is a problem; the walk goes on).
    Also returns the states after event `keep_at` (None: the head), for a checkpoint there."""
    evolve = games.binding_for(table.game).engine.evolve
    state = start.state
    states: dict[int, Any] = {}
    engine_types: dict[str, bool] = {}
    custody_types: dict[str, bool] = {}
    table_id, expected_prev, expected_seq = table.pk, start.head_hash, start.seq + 1
    linked = True  # after the first broken link, the rest of the chain is not judged
    snapshots = _SnapshotComparison(table, result, start.seq)
    kept: Kept | None = None
    if keep_at == start.seq and start.custody is not None:
        kept = (start.seq, state, start.custody)
    chunks, decode = _log_chunks(table, after_seq=start.seq)
    with closing(chunks):
        for chunk in chunks:
            for row in chunk:
                seq, round_number, kind, prev, digest = row[0], row[1], row[2], row[10], row[11]
                payload = decode(row[3])
                if linked and (
                    seq != expected_seq
                    or prev != expected_prev
                    or stored_chain_hash(
                        prev, table_id, seq, round_number, kind, payload, row[4], row[5],
                        row[6], row[7], row[8], row[9],
                    ) != digest
                ):  # fmt: skip
                    result.problems.append(
                        _link_problem(table, seq, prev, expected_prev, expected_seq)
                    )
                    linked = False
                expected_prev, expected_seq = digest, seq + 1
                result.events_checked += 1
                engine_event = engine_types.get(kind)
                if engine_event is None:
                    engine_event = engine_types[kind] = is_engine_event(kind)
                if engine_event:
                    try:
                        state = evolve(state, Event(kind, payload))
                    except (RuleError, KeyError, ValueError, TypeError) as error:
                        result.head_seq, result.head_hash = seq, digest
                        result.problems.append(
                            f"table {table.name} seq {seq}: the engine cannot replay it ({error})"
                        )
                        return states, None
                elif not custody.refused:
                    custody_event = custody_types.get(kind)
                    if custody_event is None:
                        custody_event = custody_types[kind] = is_custody_event(kind)
                    if custody_event:
                        try:
                            custody.fold(seq, kind, payload)
                        except CustodyRefusedError as refused:
                            result.problems.append(str(refused))
                if round_number is not None:
                    states[round_number] = state
                if seq in snapshots.seqs:
                    snapshots.add(seq, state)
                if seq == keep_at:
                    kept = (seq, state, custody.open_shifts())
    snapshots.finish()
    if result.events_checked:
        result.head_seq, result.head_hash = expected_seq - 1, expected_prev
        if keep_at is None or keep_at > result.head_seq:
            kept = (result.head_seq, state, custody.open_shifts())
    return states, kept


class _SnapshotComparison:
    """The stored snapshots after `after_seq` against the replayed states, a batch at a time
    (a long log holds many: neither side is kept whole)."""

    def __init__(self, table: Table, result: TableVerification, after_seq: int) -> None:
        self.table, self.result = table, result
        self.codec = games.binding_for(table.game).state_codec
        self.seqs: frozenset[int] = frozenset()
        if self.codec is not None:
            stored = EngineSnapshot.objects.filter(
                table=table, seq__gt=after_seq, codec_version=self.codec.version
            )
            self.seqs = frozenset(stored.values_list("seq", flat=True))
        self.pending: dict[int, Any] = {}

    def add(self, seq: int, state: Any) -> None:
        assert self.codec is not None  # no seqs without a codec
        self.pending[seq] = self.codec.encode(state)
        if len(self.pending) >= COMPARE_SNAPSHOTS:
            self.finish()

    def finish(self) -> None:
        if not self.pending or self.codec is None:
            return
        # The range bounds the index scan to the batch; `seq__in` alone filtered every
        # snapshot of the table.
        seqs = list(self.pending)
        stored = EngineSnapshot.objects.filter(
            table=self.table,
            seq__range=(min(seqs), max(seqs)),
            seq__in=seqs,
            codec_version=self.codec.version,
        ).values_list("seq", "state")
        for seq, state in stored:
            self.result.snapshots_compared += 1
            if state != self.pending[seq]:
                where = f"table {self.table.name} seq {seq}"
                self.result.problems.append(f"{where}: the stored snapshot differs from the replay")
        self.pending = {}


def _link_problem(table: Table, seq: int, prev: str, expected_prev: str, expected_seq: int) -> str:
    where = f"table {table.name} seq {seq}"
    if seq != expected_seq:
        return f"{where}: expected seq {expected_seq} (a gap or a repeat)"
    if prev != expected_prev:
        return f"{where}: prev_hash does not match the previous event's hash"
    return f"{where}: the content does not match its hash (edited)"


def log_rows(table: Table) -> Generator[LogRow, None, None]:
    """The table's log in seq order, as `LogRow`s. Call inside a transaction on PostgreSQL."""
    chunks, decode = _log_chunks(table, after_seq=0)
    with closing(chunks):
        for chunk in chunks:
            for row in chunk:
                yield (row[0], row[1], row[2], decode(row[3]), *row[4:])


def _log_chunks(
    table: Table, *, after_seq: int
) -> tuple[Generator[Sequence[Sequence[Any]], None, None], Callable[[Any], Any]]:
    """The log after `after_seq` in seq order, in chunks of rows laid out as `LogRow` but for
    the payload, and the function that decodes a row's payload. Rows are not copied into new tuples:
    at a million rows, that alone would cost seconds."""
    if _server_side_reads():
        # The payload arrives as the jsonb's text: the backend leaves decoding to the JSON
        # field, as for every jsonb value.
        return _postgresql_chunks(table, after_seq), json.loads
    return _orm_chunks(table, after_seq), _decoded


def _decoded(payload: Any) -> Any:
    return payload


def _server_side_reads() -> bool:
    """PostgreSQL, unless server-side cursors are off (behind a transaction pooler)."""
    return connection.vendor == "postgresql" and not connection.settings_dict.get(
        "DISABLE_SERVER_SIDE_CURSORS"
    )


def _orm_chunks(table: Table, after_seq: int = 0) -> Generator[list[LogRow], None, None]:
    events = TableEvent.objects.filter(table=table, seq__gt=after_seq)
    rows = events.order_by("seq").values_list(*LOG_COLUMNS)
    chunk: list[LogRow] = []
    for row in rows.iterator(chunk_size=2000):
        occurred, recorded = canonical_time(row[7]), canonical_time(row[8])
        chunk.append((*row[:7], occurred, recorded, *row[9:]))
        if len(chunk) == 2000:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _postgresql_chunks(
    table: Table, after_seq: int
) -> Generator[Sequence[Sequence[Any]], None, None]:
    with connection.chunked_cursor() as cursor:
        cursor.execute(_postgresql_log_sql(), [table.pk, after_seq])
        while chunk := cursor.fetchmany(CHUNK_ROWS):
            yield chunk


def _postgresql_log_sql() -> str:
    quote = connection.ops.quote_name

    def column(model: type[models.Model], name: str) -> str:
        model_field = model._meta.get_field(name)
        assert isinstance(model_field, models.Field)
        return ("e." if model is TableEvent else "r.") + quote(model_field.column)

    def event(name: str) -> str:
        return column(TableEvent, name)

    def canonical_text(name: str) -> str:
        # canonical_time's form: UTC, microseconds, a trailing Z.
        return f"""to_char({event(name)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')"""

    return (
        f"SELECT {event('seq')}, {column(Round, 'number')}, {event('type')}, "
        f"{event('payload')}, {event('schema_version')}, {event('actor')}, {event('source')}, "
        f"{canonical_text('occurred_at')}, {canonical_text('recorded_at')}, "
        f"{event('idempotency_key')}, {event('prev_hash')}, {event('hash')} "
        f"FROM {quote(TableEvent._meta.db_table)} e LEFT JOIN {quote(Round._meta.db_table)} r "
        f"ON {column(Round, 'id')} = {event('round')} "
        f"WHERE {event('table')} = %s AND {event('seq')} > %s ORDER BY {event('seq')}"
    )


def _compare_rounds(
    table: Table, states: dict[int, Any], result: TableVerification, since: datetime | None
) -> None:
    audit_view = games.binding_for(table.game).audit_view
    if not states:
        return
    # Only the rounds the walk replayed, by their number's range on the (table, number)
    # index: an audit from a checkpoint reads its shift's rounds, not the table's history.
    rounds = Round.objects.filter(table=table, number__range=(min(states), max(states))).order_by(
        "number"
    )
    if since is not None:
        rounds = rounds.filter(opened_at__gte=since)
    if _server_side_reads():
        numbers = [number for number in rounds.values_list("number", flat=True) if number in states]
        for start in range(0, len(numbers), COMPARE_ROUNDS):
            chunk = numbers[start : start + COMPARE_ROUNDS]
            # One JSON array of [number, view] pairs: one string to quote, not one per view.
            pairs = ",".join(
                f"[{number},{_stored_form(audit_view(states[number])).decode()}]"
                for number in chunk
            )
            for number, equal in _postgresql_compare(table, f"[{pairs}]", chunk[0], chunk[-1]):
                result.rounds_replayed += 1
                if not equal:
                    result.problems.append(_projection_problem(table, number))
        return
    for number, stored in rounds.values_list("number", "state").iterator(chunk_size=500):
        if number not in states:
            continue
        result.rounds_replayed += 1
        if json.loads(_stored_form(audit_view(states[number]))) != stored:
            result.problems.append(_projection_problem(table, number))


def _stored_form(view: dict[str, Any]) -> bytes:
    """The replayed view as the projection was stored (through JSON). Without the float
    check: the engines write no floats, and the projection's own write refuses them."""
    return canonical_json(view, stored=True)


def _projection_problem(table: Table, number: int) -> str:
    return f"table {table.name} round {number}: the replay differs from its projection"


def _postgresql_compare(
    table: Table, pairs: str, first: int, last: int
) -> list[tuple[int, bool | None]]:
    """(number, stored projection equals the replayed view) per round of `pairs` (numbered
    `first` to `last`), compared as jsonb by the database: the projections need not travel
    and be decoded here. jsonb equality is Python's dict equality, except that it also tells
    `true` from 1 (stricter). The number range keeps the join on the batch's rounds (a hash
    join over every round of the table otherwise)."""
    quote = connection.ops.quote_name

    def column(name: str) -> str:
        model_field = Round._meta.get_field(name)
        assert isinstance(model_field, models.Field)
        return "r." + quote(model_field.column)

    sql = (
        f"SELECT {column('number')}, {column('state')} = v.pair -> 1 "
        "FROM jsonb_array_elements(%s::jsonb) AS v(pair) "
        f"JOIN {quote(Round._meta.db_table)} r ON {column('table')} = %s "
        f"AND {column('number')} BETWEEN %s AND %s "
        f"AND {column('number')} = (v.pair ->> 0)::integer ORDER BY {column('number')}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [pairs, table.pk, first, last])
        return [(int(number), equal) for number, equal in cursor.fetchall()]
