"""The log on the real PostgreSQL and Redis: concurrent writers, triggers, live notices."""

from __future__ import annotations

import threading

import pytest
from django.conf import settings
from django.db import DatabaseError, connection, connections, transaction

from tables.engine.errors import RuleError
from tables.live.groups import table_group
from tables.models import Table, TableEvent
from tables.services.commands import table_command
from tables.services.floor import round_open
from tables.verification import verify_table
from tests.live_listener import GroupListener
from tests.tables.tally_game import Add

WRITERS = 6
COMMANDS_PER_WRITER = 15


def write_concurrently(
    table_id: int, errors: list[BaseException], start: threading.Barrier
) -> None:
    try:
        start.wait()
        for _ in range(COMMANDS_PER_WRITER):
            table_command(table_id=table_id, command=Add(1), actor=None, source="shoe")
    except BaseException as error:  # collected and asserted on by the test thread
        errors.append(error)
    finally:
        connections.close_all()


@pytest.mark.django_db(transaction=True)
def test_concurrent_writers_are_serialised_without_gaps_or_lost_updates(
    tally_table: Table,
) -> None:
    assert connection.vendor == "postgresql"
    round_open(table_id=tally_table.pk, actor=None)
    errors: list[BaseException] = []
    start = threading.Barrier(WRITERS)
    threads = [
        threading.Thread(target=write_concurrently, args=(tally_table.pk, errors, start))
        for _ in range(WRITERS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    seqs = list(
        TableEvent.objects.filter(table=tally_table).order_by("seq").values_list("seq", flat=True)
    )
    assert seqs == list(range(1, len(seqs) + 1))
    assert TableEvent.objects.filter(table=tally_table, type="tally.added").count() == (
        WRITERS * COMMANDS_PER_WRITER
    )
    tally_table.refresh_from_db()
    assert tally_table.head_seq == seqs[-1]
    result = verify_table(tally_table)
    assert result.ok, result.problems
    round_state = tally_table.rounds.get().state
    assert round_state["total"] == WRITERS * COMMANDS_PER_WRITER


@pytest.mark.django_db
def test_postgresql_refuses_update_and_delete_on_the_log(tally_table: Table) -> None:
    event = TableEvent.objects.filter(table=tally_table).first()
    assert event is not None
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        TableEvent.objects.filter(pk=event.pk).update(type="edited")
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        TableEvent.objects.filter(pk=event.pk).delete()


def add_then_fail(table_id: int) -> None:
    with transaction.atomic():
        table_command(table_id=table_id, command=Add(5), actor=None, source="tablet")
        raise RuntimeError("roll the whole request back")


@pytest.mark.django_db(transaction=True)
def test_the_table_group_hears_the_notice_after_commit_and_nothing_on_rollback(
    tally_table: Table,
) -> None:
    assert settings.REDIS_URL, "the Redis channel layer, as in production"
    listener = GroupListener(table_group(tally_table.pk))
    head = tally_table.head_seq
    try:
        with transaction.atomic():
            round_open(table_id=tally_table.pk, actor=None)
            assert listener.next_after(head, timeout=0.5) is None, "pushed before commit"
        tally_table.refresh_from_db()
        notice = listener.next_after(head, timeout=5)
        assert notice is not None
        assert (notice["type"], notice["seq"]) == ("table.changed", tally_table.head_seq)
        with pytest.raises(RuleError):
            table_command(table_id=tally_table.pk, command=Add(5000), actor=None, source="tablet")
        with pytest.raises(RuntimeError):
            add_then_fail(tally_table.pk)
        assert listener.next_after(head, timeout=1) is None
    finally:
        listener.leave()
