"""The read-replica route: the reports' reads go to a streaming replica, everything else to
the primary.

With `DATABASE_REPLICA_URL` set, settings add a `replica` alias. Code that only reads for a
report opens a `replica_reads()` scope (the report builders, the audit's findings); inside it,
and only there, the router sends ORM reads to the replica. It stays on the primary for

- every write, and every read after a write in the same scope (a report that stored a table's
  report reads on from the primary, which has it);
- every read inside a transaction on the primary: a transaction's reads must see its own writes
  and one consistent snapshot, which only the primary holds;
- a scope whose replica has not replayed the primary's log up to the moment the scope opened
  (waited for up to CASINO_REPLICA_MAX_WAIT_SECONDS), or does not answer: a report never reads a
  log older than the moment it was asked for.

Without the alias (the embedded default, or PostgreSQL with no replica) the router answers
nothing and Django's own routing applies: one database.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model

REPLICA = "replica"
POLL_SECONDS = 0.05
logger = logging.getLogger(__name__)


@dataclass
class _Scope:
    use_replica: bool
    wrote: bool = False


_scope: ContextVar[_Scope | None] = ContextVar("casino_replica_scope", default=None)


def replica_configured() -> bool:
    return REPLICA in settings.DATABASES


@contextmanager
def replica_reads() -> Iterator[None]:
    """Send this block's ORM reads to the replica when one is configured and caught up.

    A scope opened inside another one is the same scope: a write anywhere in it keeps the rest
    of the outer block on the primary too."""
    if _scope.get() is not None:
        yield
        return
    use = replica_configured() and not connections[DEFAULT_DB_ALIAS].in_atomic_block
    token = _scope.set(_Scope(use_replica=use and replica_caught_up()))
    try:
        yield
    finally:
        _scope.reset(token)


def reading_from_replica() -> bool:
    """Whether a read made here, now, goes to the replica."""
    scope = _scope.get()
    return (
        scope is not None
        and scope.use_replica
        and not scope.wrote
        and not connections[DEFAULT_DB_ALIAS].in_atomic_block
    )


def read_connection() -> BaseDatabaseWrapper:
    """The connection a raw SQL read of a report runs on (the ORM asks the router itself)."""
    return connections[REPLICA if reading_from_replica() else DEFAULT_DB_ALIAS]


def replica_caught_up() -> bool:
    """Whether the replica has replayed the primary's log up to now (waiting a little for it).

    A replica that is not in recovery is a copy that takes no stream (a test's mirror of the
    primary): it is the primary's data, caught up by definition."""
    wait = float(getattr(settings, "CASINO_REPLICA_MAX_WAIT_SECONDS", 5))
    try:
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute("SELECT pg_current_wal_lsn()::text")
            (primary_lsn,) = cursor.fetchone()
        deadline = time.monotonic() + wait
        while True:
            with connections[REPLICA].cursor() as cursor:
                cursor.execute(
                    "SELECT NOT pg_is_in_recovery() OR pg_last_wal_replay_lsn() >= %s::pg_lsn",
                    [primary_lsn],
                )
                (caught_up,) = cursor.fetchone()
            if caught_up:
                return True
            if time.monotonic() >= deadline:
                logger.warning(
                    "The replica has not replayed up to %s after %.1f s; reading from the primary.",
                    primary_lsn,
                    wait,
                )
                return False
            time.sleep(POLL_SECONDS)
    except DatabaseError as error:
        logger.warning("The replica cannot be read (%s); reading from the primary.", error)
        connections[REPLICA].close()
        return False


class ReplicaRouter:
    """Django's database router for the `replica` alias (settings.DATABASE_ROUTERS)."""

    def db_for_read(self, model: type[Model], **hints: Any) -> str | None:
        if not replica_configured():
            return None
        # Named outright, even outside a scope: an object read from the replica would
        # otherwise pull its related rows from there too, wherever it travels next.
        return REPLICA if reading_from_replica() else DEFAULT_DB_ALIAS

    def db_for_write(self, model: type[Model], **hints: Any) -> str | None:
        scope = _scope.get()
        if scope is not None:
            scope.wrote = True
        return DEFAULT_DB_ALIAS if replica_configured() else None

    def allow_relation(self, obj1: Model, obj2: Model, **hints: Any) -> bool | None:
        # The replica holds the primary's rows: an object read from either may point at one
        # read from the other.
        return True if replica_configured() else None

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool | None:
        # The replica takes its schema from the primary's stream, never from `migrate`.
        return False if db == REPLICA else None
