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
from contextlib import contextmanager
from functools import cache
from typing import Any

import psycopg
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, JSONField, Model

from tables.engine.errors import NotAllowedNowError
from tables.models import EngineSnapshot, Round, Table, TableEvent

HEAD_FIELDS = ("head_seq", "head_hash")
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
            raise NotAllowedNowError("There is no such table.", code="table_not_found") from None
    with _prepared_cursor(connection) as cursor:
        cursor.execute(_lock_sql(), [table_id], prepare=True)
        found = cursor.fetchone()
    if found is None:
        raise NotAllowedNowError("There is no such table.", code="table_not_found")
    values = list(found)
    for index, field in _DECODED_TABLE_FIELDS:
        values[index] = field.from_db_value(values[index], None, connection)
    return Table.from_db(connection.alias, [field.attname for field in _TABLE_FIELDS], values)


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
    with _prepared_cursor(connection) as cursor:
        cursor.execute(sql, params, prepare=True)
        for row, (primary_key,) in zip(rows, cursor.fetchall(), strict=True):
            row.pk = primary_key
            row._state.adding = False
            row._state.db = connection.alias


@contextmanager
def _prepared_cursor(connection: BaseDatabaseWrapper) -> Iterator[psycopg.Cursor[Any]]:
    """A cursor binding parameters on the server, for the two statements every append runs.

    Their text is the same on every append of one shape, so with ``prepare=True`` the server
    parses and plans them once per connection; planning the write's ``WITH`` clauses anew each
    time cost over a quarter of an append (0.44 against 0.61 of a bare INSERT in
    docs/PERFORMANCE.md). Django keeps prepared
    statements off by default, for poolers that do not carry them between connections (see
    docs/event-log.md). Errors come out as Django's, as from its own cursors.
    """
    connection.ensure_connection()
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
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
def _append_sql(
    row_count: int, projected_fields: tuple[str, ...] | None, *, with_snapshot: bool = False
) -> str:
    """The INSERT of `row_count` events, the head UPDATE and, unless None, the projection's,
    and the snapshot's INSERT if `with_snapshot`."""
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
    return f"WITH {', '.join(parts)} SELECT {_quote('id')} FROM inserted ORDER BY {_quote('seq')}"


def _update_sql(name: str, model: type[Model], names: tuple[str, ...]) -> str:
    """`name AS (UPDATE ... SET column = %s, ... WHERE id = %s)`."""
    assignments = ", ".join(f"{_quote(field.column)} = %s" for field in _fields(model, names))
    return (
        f"{name} AS (UPDATE {_quote(model._meta.db_table)} SET {assignments} "
        f"WHERE {_quote('id')} = %s)"
    )
