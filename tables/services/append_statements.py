"""The statements of one append: lock the table row, then write the new events, the table's
head and the round projection.

These rows always change together, under the table lock, in the caller's transaction, with
the engine snapshot when one is due. On
PostgreSQL the write is one statement (data-modifying common table expressions), so an append
costs BEGIN, the lock, this statement and the commit, where one statement per row would take
six round trips. The lock is a plain SELECT read straight into the model, without the ORM's
query building, which costs more processor time than the round trip itself, and both
statements are prepared. Other databases get the same rows through the ORM.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any

import psycopg
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, JSONField, Model

from tables import card_feeds
from tables.engine.errors import NotAllowedNowError
from tables.models import DealerAssignment, EngineSnapshot, Round, Table, TableEvent

HEAD_FIELDS = ("head_seq", "head_hash")
TABLE_NOT_FOUND = "table_not_found"  # the lock's refusal code when the table does not exist
_TABLE_FIELDS = Table._meta.concrete_fields
_DECODED_TABLE_FIELDS = [
    (index, field) for index, field in enumerate(_TABLE_FIELDS) if hasattr(field, "from_db_value")
]
_EVENT_FIELDS = [field for field in TableEvent._meta.concrete_fields if not field.primary_key]
_SNAPSHOT_FIELDS = [
    field for field in EngineSnapshot._meta.concrete_fields if not field.primary_key
]


def _quote(name: str) -> str:
    return connections[DEFAULT_DB_ALIAS].ops.quote_name(name)


def lock_table(table_id: int) -> Table:
    """The table, its row locked until the transaction ends (select_for_update)."""
    # The connection itself, not django.db.connection, whose every attribute read is a lookup.
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.vendor != "postgresql":
        try:
            return Table.objects.select_for_update().get(pk=table_id)
        except Table.DoesNotExist:
            raise NotAllowedNowError("There is no such table.", code=TABLE_NOT_FOUND) from None
    with _prepared_cursor(connection) as cursor:
        cursor.execute(_lock_sql(), [table_id], prepare=True)
        found = cursor.fetchone()
    _log(connection, _lock_sql())
    if found is None:
        raise NotAllowedNowError("There is no such table.", code=TABLE_NOT_FOUND)
    return _table_from_row(connection, found)


def _table_from_row(connection: BaseDatabaseWrapper, found: Sequence[Any]) -> Table:
    values = list(found)
    for index, field in _DECODED_TABLE_FIELDS:
        values[index] = field.from_db_value(values[index], None, connection)
    return Table.from_db(connection.alias, [field.attname for field in _TABLE_FIELDS], values)


@dataclass(frozen=True)
class LockedFacts:
    """What the policy reads about a table, read right after its lock: the feed status
    (None when some feed check has no statement form: the policy asks it itself) and
    whether the given dealer is assigned to it (None when no dealer was named)."""

    feed_status: tuple[bool, str | None] | None
    dealer_assigned: bool | None


def lock_table_with_facts(table_id: int, dealer_id: int | None) -> tuple[Table, LockedFacts]:
    """`lock_table`, and the policy's reads of the table (its feed status, the dealer's
    assignment) in the same round trip on PostgreSQL.

    The reads are statements of their own, sent behind the lock in one pipeline: each runs
    once the one before it is done, so in READ COMMITTED they see whatever the previous holder
    of the lock committed. Folded into the lock statement as subqueries they would not: a
    statement's snapshot is taken before it waits for the lock, and only the locked row itself
    is re-read after the wait.
    """
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.vendor != "postgresql":
        return lock_table(table_id), LockedFacts(None, None)
    statements = card_feeds.status_statements()
    connection.ensure_connection()
    with ExitStack() as stack:
        stack.enter_context(connection.wrap_database_errors)
        raw = connection.connection
        lock = stack.enter_context(psycopg.Cursor(raw))
        assignment = None if dealer_id is None else stack.enter_context(psycopg.Cursor(raw))
        feeds = [(statement, stack.enter_context(psycopg.Cursor(raw))) for statement in statements]
        begin = stack.enter_context(psycopg.Cursor(raw)) if _begins_here(raw) else None
        # Leaving the pipeline sends one Sync and reads every answer: one round trip, where
        # fetching inside it would cost a flush and then the Sync, two.
        with raw.pipeline(), _begun_with(raw, begin):
            lock.execute(_lock_sql(), [table_id], prepare=True)
            if assignment is not None:
                assignment.execute(_assignment_sql(), [dealer_id, table_id], prepare=True)
            for statement, cursor in feeds:
                cursor.execute(statement.sql, list(statement.params(table_id)), prepare=True)
        found = lock.fetchone()
        assigned = None if assignment is None else bool(_one(assignment)[0])
        status = None
        if statements:
            status = card_feeds.combined_status([s.decode(_one(c)) for s, c in feeds])
    _log(connection, _lock_sql(), len(statements) + (dealer_id is not None))
    if found is None:
        raise NotAllowedNowError("There is no such table.", code=TABLE_NOT_FOUND)
    return _table_from_row(connection, found), LockedFacts(status, assigned)


def _begins_here(raw: psycopg.Connection[Any]) -> bool:
    """Whether the lock is the transaction's first statement, with a plain BEGIN to start it.

    psycopg starts a transaction itself before its first statement, and in a pipeline it then
    syncs and waits for the BEGIN's answer (psycopg/psycopg#401): a round trip of its own
    before the lock's, on every command. Sent by the lock, the BEGIN travels in the lock's
    pipeline. A connection set to another isolation level (or read-only) keeps psycopg's own
    start, which knows how to say it."""
    return (
        not raw.autocommit
        and raw.pgconn.transaction_status == psycopg.pq.TransactionStatus.IDLE
        and raw.isolation_level is None
        and raw.read_only is None
        and raw.deferrable is None
    )


@contextmanager
def _begun_with(raw: psycopg.Connection[Any], begin: psycopg.Cursor[Any] | None) -> Iterator[None]:
    """Inside a pipeline: BEGIN sent as its first statement by `begin`, psycopg kept from
    sending its own (which would sync the pipeline) while the statements are queued.

    psycopg has no public switch for this: its `_autocommit` flag is what makes it skip its
    own BEGIN, and it is set back before anything leaves the pipeline. The transaction is
    then the one Django opened (its atomic block commits or rolls it back as always);
    tests/tables/test_command_round_trips.py counts the round trips and checks the lock is
    held to the commit, on the pinned psycopg."""
    if begin is None:
        yield
        return
    raw._autocommit = True
    try:
        begin.execute(b"BEGIN", prepare=False)
        yield
    finally:
        raw._autocommit = False


def _one(cursor: psycopg.Cursor[Any]) -> Sequence[Any]:
    row: Sequence[Any] | None = cursor.fetchone()
    assert row is not None  # each statement selects exactly one row of EXISTS answers
    return row


def _log(connection: BaseDatabaseWrapper, sql: str, pipelined: int = 0) -> None:
    """Show a raw statement where Django shows its own (debug, CaptureQueriesContext), so
    every round trip is counted; `pipelined` statements went with it in the same trip."""
    if connection.queries_logged:
        note = f" -- and {pipelined} more statement(s) in the same round trip" if pipelined else ""
        connection.queries_log.append({"sql": sql + note, "time": "0.000"})


def write_append(
    table: Table,
    rows: Sequence[TableEvent],
    projected: Round | None = None,
    projected_fields: Sequence[str] = (),
    *,
    snapshot: EngineSnapshot | None = None,
) -> None:
    """INSERT `rows` (setting their primary keys), save the table's head and, if given, the
    `projected_fields` of the round `projected` and the `snapshot`. The caller holds the
    table lock."""
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.vendor == "postgresql":
        _write_in_one_statement(
            connection, table, rows, projected, tuple(projected_fields), snapshot
        )
        return
    TableEvent.objects.bulk_create(rows)
    table.save(update_fields=HEAD_FIELDS)
    if projected is not None:
        projected.save(update_fields=projected_fields)
    if snapshot is not None:
        snapshot.save(force_insert=True)


def _write_in_one_statement(
    connection: BaseDatabaseWrapper,
    table: Table,
    rows: Sequence[TableEvent],
    projected: Round | None,
    projected_fields: tuple[str, ...],
    snapshot: EngineSnapshot | None,
) -> None:
    params: list[Any] = []
    for row in rows:
        params += _column_values(connection, row, _EVENT_FIELDS)
    params += _column_values(connection, table, _fields(Table, HEAD_FIELDS))
    params.append(table.pk)
    if projected is not None:
        params += _column_values(connection, projected, _fields(Round, projected_fields))
        params.append(projected.pk)
    if snapshot is not None:
        params += _column_values(connection, snapshot, _SNAPSHOT_FIELDS)
    shape = projected_fields if projected is not None else None
    sql = _append_sql(len(rows), shape, with_snapshot=snapshot is not None)
    # PostgreSQL's own placeholders: psycopg parses a `%s` statement on every execute once it
    # has more than 50 of them (an append of four events), or when its small cache of parsed
    # statements has moved on; that parse was a tenth of a command's processor time.
    with _prepared_cursor(connection, psycopg.RawCursor) as cursor:
        cursor.execute(sql, params, prepare=True)
        for row, (primary_key,) in zip(rows, cursor.fetchall(), strict=True):
            row.pk = primary_key
            row._state.adding = False
            row._state.db = connection.alias
    _log(connection, sql)


@contextmanager
def _prepared_cursor(
    connection: BaseDatabaseWrapper, kind: type[psycopg.Cursor[Any]] = psycopg.Cursor
) -> Iterator[psycopg.Cursor[Any]]:
    """A cursor binding parameters on the server, for the two statements every append runs.

    Their text is the same on every append of one shape, so with ``prepare=True`` the server
    parses and plans them once per connection; planning the write's ``WITH`` clauses anew each
    time cost over a quarter of an append (0.44 against 0.61 of a bare INSERT in
    docs/PERFORMANCE.md). Django keeps prepared
    statements off by default, for poolers that do not carry them between connections (see
    docs/event-log.md). Errors come out as Django's, as from its own cursors.
    """
    connection.ensure_connection()
    with connection.wrap_database_errors, kind(connection.connection) as cursor:
        yield cursor


def _column_values(
    connection: BaseDatabaseWrapper, instance: Model, fields: Sequence[Field[Any, Any]]
) -> list[Any]:
    # On PostgreSQL a field's own preparation returns ints, strings and aware datetimes as
    # they are; only JSON needs its adapter. Calling it on every column would cost the
    # append a tenth of its processor time.
    return [
        field.get_db_prep_save(getattr(instance, field.attname), connection)
        if isinstance(field, JSONField)
        else getattr(instance, field.attname)
        for field in fields
    ]


@cache
def _fields(model: type[Model], names: tuple[str, ...]) -> tuple[Field[Any, Any], ...]:
    found = tuple(model._meta.get_field(name) for name in names)
    assert all(isinstance(field, Field) for field in found)  # columns, not reverse relations
    return found  # type: ignore[return-value]


# The statements' text depends only on the shape of the append; built once per shape.
@cache
def _lock_sql() -> str:
    columns = ", ".join(_quote(field.column) for field in _TABLE_FIELDS)
    return (
        f"SELECT {columns} FROM {_quote(Table._meta.db_table)} WHERE {_quote('id')} = %s FOR UPDATE"
    )


@cache
def _assignment_sql() -> str:
    column = {field.name: _quote(field.column) for field in _fields(
        DealerAssignment, ("dealer", "table", "ended_at")
    )}  # fmt: skip
    return (
        f"SELECT EXISTS(SELECT 1 FROM {_quote(DealerAssignment._meta.db_table)} "
        f"WHERE {column['dealer']} = %s AND {column['table']} = %s "
        f"AND {column['ended_at']} IS NULL)"
    )


@cache
def _append_sql(
    row_count: int, projected_fields: tuple[str, ...] | None, *, with_snapshot: bool = False
) -> str:
    """The INSERT of `row_count` events, the head UPDATE and, unless None, the projection's,
    and the snapshot's INSERT if `with_snapshot`; numbered placeholders (`$1`)."""
    columns = ", ".join(_quote(field.column) for field in _EVENT_FIELDS)
    row_marks = "(" + ", ".join(["%s"] * len(_EVENT_FIELDS)) + ")"
    parts = [
        f"inserted AS (INSERT INTO {_quote(TableEvent._meta.db_table)} ({columns}) "
        f"VALUES {', '.join([row_marks] * row_count)} RETURNING {_quote('id')}, {_quote('seq')})",
        _update_sql("head", Table, HEAD_FIELDS),
    ]
    if projected_fields is not None:
        parts.append(_update_sql("projection", Round, projected_fields))
    if with_snapshot:
        snapshot_columns = ", ".join(_quote(field.column) for field in _SNAPSHOT_FIELDS)
        snapshot_marks = ", ".join(["%s"] * len(_SNAPSHOT_FIELDS))
        parts.append(
            f"snapshot AS (INSERT INTO {_quote(EngineSnapshot._meta.db_table)} "
            f"({snapshot_columns}) VALUES ({snapshot_marks}))"
        )
    sql = f"WITH {', '.join(parts)} SELECT {_quote('id')} FROM inserted ORDER BY {_quote('seq')}"
    return _numbered(sql)


def _numbered(sql: str) -> str:
    """`%s` placeholders as PostgreSQL's `$1, $2, ...` (no other `%` is in these statements:
    their names are quoted identifiers), for psycopg's RawCursor."""
    parts = sql.split("%s")
    return "".join(f"{part}${n}" for n, part in enumerate(parts[:-1], 1)) + parts[-1]


def _update_sql(name: str, model: type[Model], names: tuple[str, ...]) -> str:
    """`name AS (UPDATE ... SET column = %s, ... WHERE id = %s)`."""
    assignments = ", ".join(f"{_quote(field.column)} = %s" for field in _fields(model, names))
    return (
        f"{name} AS (UPDATE {_quote(model._meta.db_table)} SET {assignments} "
        f"WHERE {_quote('id')} = %s)"
    )
