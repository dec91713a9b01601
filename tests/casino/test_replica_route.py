"""The read-replica route: the reports' reads go to the `replica` alias, writes and
transactions stay on the primary, and without a replica the router changes nothing.

On PostgreSQL the replica here is a second alias on the same test database (what the test
runner makes of `TEST: {"MIRROR": "default"}`), so what each connection ran is counted apart."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import DEFAULT_DB_ALIAS, connection, connections, router, transaction
from django.test.utils import CaptureQueriesContext

from casino.db_router import REPLICA, read_connection, reading_from_replica, replica_reads
from reports.demo.shift import Staff, simulate_shift, simulation_tables
from reports.models import Report
from reports.services.storing import produce_report
from reports.shifts import ShiftKey
from tables.models import Table, TableEvent

WRITES = ("INSERT", "UPDATE", "DELETE")
on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the replica route is for PostgreSQL"
)


pytestmark = [
    on_postgresql,
    # Committed rows only: the replica is another connection, it sees no open transaction.
    # Serialized like the shoe tests after it: a plain flush would leave them content types
    # under new ids, which their restore then collides with.
    pytest.mark.django_db(
        transaction=True, serialized_rollback=True, databases=[DEFAULT_DB_ALIAS, REPLICA]
    ),
]


def replica_settings(**changes: Any) -> dict[str, Any]:
    """A `replica` alias on the primary's database, as a test mirror of it."""
    replica = dict(connections[DEFAULT_DB_ALIAS].settings_dict)
    replica.update(TEST={"MIRROR": DEFAULT_DB_ALIAS}, **changes)
    return replica


def set_replica(replica: dict[str, Any] | None) -> None:
    """Point the `replica` alias elsewhere (None: take it away). connections.settings is
    settings.DATABASES itself, so the router sees the change at once."""
    if REPLICA in connections.settings:
        connections[REPLICA].close()
        del connections[REPLICA]
        del connections.settings[REPLICA]
    if replica is not None:
        connections.settings[REPLICA] = replica


@pytest.fixture(scope="module", autouse=True)
def replica_alias() -> Iterator[None]:
    """The alias exists before the test database is set up for these tests, as it does when
    DATABASE_REPLICA_URL is set: the runner then treats it as the primary's mirror."""
    if connection.vendor != "postgresql":
        yield
        return
    set_replica(replica_settings())
    yield
    set_replica(None)


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """The personas' passwords are never checked here; a slow hash only slows the tests."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def played(
    dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User, cashier_carmen: User
) -> tuple[ShiftKey, Table]:
    staff = Staff(dealer_dora, pit_boss_paula, pit_boss_pedro, cashier_carmen)
    key, _ = simulate_shift(simulation_tables(1), rounds=3, seed=5, staff=staff, run_reports=False)
    return key, Table.objects.get()


def writes(context: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in context.captured_queries if q["sql"].lstrip().startswith(WRITES)]


def reads(context: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in context.captured_queries if q["sql"].lstrip().startswith("SELECT")]


def test_a_report_reads_its_log_from_the_replica_and_stores_itself_on_the_primary(
    played: tuple[ShiftKey, Table],
) -> None:
    key, table = played
    with (
        CaptureQueriesContext(connections[REPLICA]) as on_replica,
        CaptureQueriesContext(connections[DEFAULT_DB_ALIAS]) as on_primary,
    ):
        report = produce_report(Report.Kind.TABLE_SHIFT, key, table=table)
    replica_sql = " ".join(reads(on_replica))
    # The log, its rounds (the database's own sums, raw SQL) and the custody events.
    assert TableEvent._meta.db_table in replica_sql
    assert "jsonb" in replica_sql or "SUM(" in replica_sql.upper()
    assert writes(on_replica) == []
    assert any(Report._meta.db_table in sql for sql in writes(on_primary))
    assert TableEvent._meta.db_table not in " ".join(reads(on_primary))
    assert report.document["rounds"]["hands_played"] == 3


def test_the_same_report_is_built_whichever_database_it_read(
    played: tuple[ShiftKey, Table],
) -> None:
    key, table = played
    from_replica = produce_report(Report.Kind.TABLE_SHIFT, key, table=table)
    saved = connections.settings[REPLICA]
    set_replica(None)
    try:
        from_primary = produce_report(Report.Kind.TABLE_SHIFT, key, table=table, reprint=True)
    finally:
        set_replica(saved)
    assert from_primary.watermark == from_replica.watermark
    for name in ("figures", "rounds", "custody"):
        assert from_primary.document.get(name) == from_replica.document.get(name)


def test_inside_a_transaction_every_read_stays_on_the_primary(
    played: tuple[ShiftKey, Table],
) -> None:
    key, table = played
    with CaptureQueriesContext(connections[REPLICA]) as on_replica, transaction.atomic():
        produce_report(Report.Kind.TABLE_SHIFT, key, table=table)
    assert on_replica.captured_queries == []


def test_after_a_write_the_rest_of_the_scope_reads_the_primary() -> None:
    with CaptureQueriesContext(connections[REPLICA]) as on_replica, replica_reads():
        assert Table.objects.count() == 0
        assert router.db_for_read(Table) == REPLICA
        assert read_connection().alias == REPLICA
        User.objects.create_user("written-here")
        assert router.db_for_write(User) == DEFAULT_DB_ALIAS
        assert not reading_from_replica()
        assert User.objects.filter(username="written-here").exists()
        assert read_connection().alias == DEFAULT_DB_ALIAS
    # The catch-up probe at the scope's start, then the count, before the write; no more.
    table_reads = [sql for sql in reads(on_replica) if " FROM " in sql]
    assert len(table_reads) == 1
    assert "COUNT(*)" in table_reads[0]
    assert writes(on_replica) == []


def test_outside_a_scope_everything_goes_to_the_primary() -> None:
    with CaptureQueriesContext(connections[REPLICA]) as on_replica:
        user = User.objects.create_user("somebody")
        assert User.objects.get(pk=user.pk).username == "somebody"
    assert router.db_for_read(User) == DEFAULT_DB_ALIAS
    assert on_replica.captured_queries == []


def test_a_replica_that_does_not_answer_leaves_the_report_on_the_primary(
    played: tuple[ShiftKey, Table],
) -> None:
    key, table = played
    saved = connections.settings[REPLICA]
    set_replica(replica_settings(PORT="1", OPTIONS={"connect_timeout": 2}))  # nobody there
    try:
        with replica_reads():
            assert not reading_from_replica()
            assert router.db_for_read(TableEvent) == DEFAULT_DB_ALIAS
        report = produce_report(Report.Kind.TABLE_SHIFT, key, table=table)
    finally:
        set_replica(saved)
    assert report.document["rounds"]["hands_played"] == 3
