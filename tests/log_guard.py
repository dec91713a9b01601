"""The append-only log's guard, lifted only for a transactional test's flush on SQLite."""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import pytest
from django.db import connection

LOG_GUARD = importlib.import_module("tables.migrations.0003_event_log_append_only")


@pytest.fixture
def erasable_log() -> Iterator[None]:
    """Let a transactional test's flush empty the log on SQLite (PostgreSQL truncates).

    SQLite flushes with DELETE, which the append-only trigger refuses: the rows go first with
    the trigger lifted for that one statement, and the guard is back before the next test.
    """
    yield
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA foreign_keys = OFF")
        for statement in LOG_GUARD.SQLITE_REMOVE:
            cursor.execute(statement)
        try:
            cursor.execute("DELETE FROM tables_tableevent")
        finally:
            for statement in LOG_GUARD.SQLITE_INSTALL:
                cursor.execute(statement)
            cursor.execute("PRAGMA foreign_keys = ON")
