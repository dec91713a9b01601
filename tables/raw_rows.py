"""Hot reads written once per process and read straight into model instances.

On every request the ORM rebuilds and compiles the same few queries (the token and its user,
the table by its id); under the production server that was about a quarter of a command's CPU.
A `ModelColumns` is the SQL column list of one model, its field names in that order and the
converters the ORM itself would apply to each column (the backend's: SQLite gives datetimes as
text and booleans as integers), so a row from a plain cursor becomes the same instance the ORM
would have made. The statements using it are built lazily and kept (`functools.lru_cache`):
the database vendor does not change within a process.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Model

M = TypeVar("M", bound=Model)


@dataclass(frozen=True)
class ModelColumns:
    model: type[Model]
    sql: str
    names: tuple[str, ...]
    converters: tuple[tuple[int, tuple[Any, ...], Any], ...]

    @classmethod
    def of(cls, model: type[Model], alias: str) -> ModelColumns:
        fields = model._meta.concrete_fields
        quote = connection.ops.quote_name
        converters = []
        for index, field in enumerate(fields):
            column = field.get_col(model._meta.db_table)
            functions = connection.ops.get_db_converters(column)
            functions += field.get_db_converters(connection)  # type: ignore[attr-defined]
            if functions:
                converters.append((index, tuple(functions), column))
        return cls(
            model,
            ", ".join(f"{alias}.{quote(field.column)}" for field in fields),
            tuple(field.attname for field in fields),
            tuple(converters),
        )

    def __len__(self) -> int:
        return len(self.names)

    def instance(self, values: Sequence[Any]) -> Any:
        """The model instance of these columns' values, as the ORM would have loaded it."""
        row = list(values)
        for index, functions, column in self.converters:
            for function in functions:
                row[index] = function(row[index], column, connection)
        return self.model.from_db(connection.alias, self.names, row)


@cache
def _by_pk_statement(model: type[Model]) -> tuple[str, ModelColumns]:
    columns = ModelColumns.of(model, "m")
    quote = connection.ops.quote_name
    primary_key = quote(model._meta.pk.column)
    table = quote(model._meta.db_table)
    return f"SELECT {columns.sql} FROM {table} m WHERE m.{primary_key} = %s", columns


def by_pk(model: type[M], pk: int) -> M | None:
    """`model.objects.filter(pk=pk).first()`, without building the query each time."""
    sql, columns = _by_pk_statement(model)
    rows = fetch_all(sql, [pk])
    return columns.instance(rows[0]) if rows else None


def fetch_all(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """The rows of one of these statements. On PostgreSQL it is prepared, on a cursor of the
    connection itself: the server plans it once per connection (the token's four-table join
    was planned on every request), and the ORM cursor's wrappers and client-side binding are
    left out. It is shown where Django shows its own statements (debug, CaptureQueriesContext)
    and its errors come out as Django's."""
    database = connections[DEFAULT_DB_ALIAS]
    if database.vendor != "postgresql":
        with database.cursor() as cursor:
            cursor.execute(sql, params)
            return list(cursor.fetchall())
    database.ensure_connection()
    with database.wrap_database_errors, psycopg.Cursor(database.connection) as cursor:
        cursor.execute(sql, params, prepare=True)
        rows = cursor.fetchall()
    if database.queries_logged:
        database.queries_log.append({"sql": sql, "time": "0.000"})
    return rows
