"""The statements of one append: lock the table row, then write the new events, the table's
head and the round projection.

These rows always change together, under the table lock, in the caller's transaction. On
PostgreSQL the write is one statement (data-modifying common table expressions), so an append
costs BEGIN, the lock, this statement and the commit, where one statement per row would take
six round trips; the lock is a prepared SELECT, without the query building of the ORM, which
costs more processor time than the round trip itself. Other databases get the same rows
through the ORM. Values go through the models' own fields either way, so both store alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model

from tables.engine.errors import NotAllowedNowError
from tables.models import Round, Table, TableEvent

HEAD_FIELDS = ("head_seq", "head_hash")
_TABLE_FIELDS = Table._meta.concrete_fields
_DECODED_TABLE_FIELDS = [
    (index, field) for index, field in enumerate(_TABLE_FIELDS) if hasattr(field, "from_db_value")
]


def lock_table_row(table_id: int) -> Table:
    """The table, its row locked until the transaction ends (select_for_update)."""
    # The connection itself, not django.db.connection, whose every attribute read is a lookup.
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.vendor != "postgresql":
        try:
            return Table.objects.select_for_update().get(pk=table_id)
        except Table.DoesNotExist:
            raise NotAllowedNowError("There is no such table.", code="table_not_found") from None
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in _TABLE_FIELDS)
    sql = f"SELECT {columns} FROM {quote(Table._meta.db_table)} WHERE {quote('id')} = %s FOR UPDATE"
    with connection.cursor() as cursor:
        cursor.execute(sql, [table_id])
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
) -> None:
    """INSERT `rows` (setting their primary keys), save the table's head and, if given, the
    `projected_fields` of the round `projected`. The caller holds the table lock."""
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.vendor == "postgresql":
        _write_in_one_statement(connection, table, rows, projected, projected_fields)
        return
    TableEvent.objects.bulk_create(rows)
    table.save(update_fields=HEAD_FIELDS)
    if projected is not None:
        projected.save(update_fields=projected_fields)


def _write_in_one_statement(
    connection: BaseDatabaseWrapper,
    table: Table,
    rows: Sequence[TableEvent],
    projected: Round | None,
    projected_fields: Sequence[str],
) -> None:
    quote = connection.ops.quote_name
    event_fields = [field for field in TableEvent._meta.concrete_fields if not field.primary_key]
    columns = ", ".join(quote(field.column) for field in event_fields)
    row_marks = "(" + ", ".join(["%s"] * len(event_fields)) + ")"
    params: list[Any] = [
        field.get_db_prep_save(getattr(row, field.attname), connection)
        for row in rows
        for field in event_fields
    ]
    parts = [
        f"inserted AS (INSERT INTO {quote(TableEvent._meta.db_table)} ({columns}) "
        f"VALUES {', '.join([row_marks] * len(rows))} RETURNING {quote('id')}, {quote('seq')})",
        _update_part(connection, "head", table, HEAD_FIELDS, params),
    ]
    if projected is not None:
        parts.append(_update_part(connection, "projection", projected, projected_fields, params))
    sql = f"WITH {', '.join(parts)} SELECT {quote('id')} FROM inserted ORDER BY {quote('seq')}"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for row, (primary_key,) in zip(rows, cursor.fetchall(), strict=True):
            row.pk = primary_key
            row._state.adding = False
            row._state.db = connection.alias


def _update_part(
    connection: BaseDatabaseWrapper,
    name: str,
    instance: Model,
    fields: Sequence[str],
    params: list[Any],
) -> str:
    """`name AS (UPDATE ... SET ... WHERE pk = ...)`, its values appended to `params`."""
    quote = connection.ops.quote_name
    meta = instance._meta
    assignments = []
    for field_name in fields:
        field = meta.get_field(field_name)
        assert isinstance(field, Field)  # a concrete column, not a relation's reverse side
        assignments.append(f"{quote(field.column)} = %s")
        params.append(field.get_db_prep_save(getattr(instance, field.attname), connection))
    params.append(instance.pk)
    primary_key = quote(meta.pk.column) if meta.pk is not None else quote("id")
    return (
        f"{name} AS (UPDATE {quote(meta.db_table)} SET {', '.join(assignments)} "
        f"WHERE {primary_key} = %s)"
    )
