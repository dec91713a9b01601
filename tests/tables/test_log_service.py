"""The one append path: seq, chain, refusals that change nothing, projections, notices."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.core.management import call_command
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from tables.engine.errors import RuleError
from tables.live.groups import table_group
from tables.log.chain import GENESIS_HASH
from tables.models import Alert, Round, Table, TableEvent
from tables.services import engine_state
from tables.services.append import NewFact, chain_facts
from tables.services.append_statements import lock_table, write_append
from tables.services.commands import table_command
from tables.services.floor import round_open
from tables.services.rebuild import rebuild_projections
from tables.verification import verify_table
from tests.live_listener import GroupListener
from tests.tables.tally_game import Add, CloseRound

pytestmark = pytest.mark.django_db


def play_round(table: Table, *amounts: int) -> None:
    round_open(table_id=table.pk, actor=None)
    for amount in amounts:
        table_command(table_id=table.pk, command=Add(amount), actor=None, source="tablet")
    table_command(table_id=table.pk, command=CloseRound(), actor=None, source="tablet")


def snapshot(table: Table) -> tuple[Any, ...]:
    table.refresh_from_db()
    rounds = list(Round.objects.filter(table=table).values_list("number", "status", "state"))
    events = list(TableEvent.objects.filter(table=table).values_list("seq", "hash"))
    return table.head_seq, table.head_hash, rounds, events, Alert.objects.count()


def test_events_get_gap_free_seqs_and_a_chain(tally_table: Table) -> None:
    play_round(tally_table, 5, 7)
    rows = list(TableEvent.objects.filter(table=tally_table).order_by("seq"))
    assert [row.seq for row in rows] == list(range(1, len(rows) + 1))
    assert rows[0].prev_hash == GENESIS_HASH
    for before, after in itertools.pairwise(rows):
        assert after.prev_hash == before.hash
    assert [row.type for row in rows][-4:] == [
        "round.opened",
        "tally.added",
        "tally.added",
        "round.closed",
    ]


def test_round_projection_follows_the_engine(tally_table: Table) -> None:
    play_round(tally_table, 5, 7)
    round_ = Round.objects.get(table=tally_table, number=1)
    assert round_.status == Round.Status.CLOSED
    assert round_.state == {"round": 1, "status": "closed", "total": 12}
    assert round_.closed_at is not None


def test_a_refused_command_changes_nothing(tally_table: Table) -> None:
    round_open(table_id=tally_table.pk, actor=None)
    before = snapshot(tally_table)
    with pytest.raises(RuleError) as refused:
        table_command(table_id=tally_table.pk, command=Add(1000), actor=None, source="tablet")
    assert refused.value.code == "too_much"
    assert snapshot(tally_table) == before


def test_a_second_round_cannot_open_while_one_is_in_play(tally_table: Table) -> None:
    round_open(table_id=tally_table.pk, actor=None)
    before = snapshot(tally_table)
    with pytest.raises(RuleError) as refused:
        round_open(table_id=tally_table.pk, actor=None)
    assert refused.value.code == "round_in_play"
    assert snapshot(tally_table) == before


def test_engine_alerts_become_alert_rows(tally_table: Table) -> None:
    play_round(tally_table, 60)
    alert = Alert.objects.get()
    assert alert.code == "big_add"
    assert alert.round is not None
    assert alert.round.number == 1


def test_the_database_refuses_update_and_delete_on_the_log(tally_table: Table) -> None:
    event = TableEvent.objects.filter(table=tally_table).first()
    assert event is not None
    with pytest.raises(DatabaseError), transaction.atomic():
        TableEvent.objects.filter(pk=event.pk).update(type="edited")
    with pytest.raises(DatabaseError), transaction.atomic():
        TableEvent.objects.filter(pk=event.pk).delete()
    event.refresh_from_db()
    assert event.type == "table.created"


def test_verify_log_passes_on_an_honest_log(
    tally_table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    play_round(tally_table, 5)
    play_round(tally_table, 9, 1)
    call_command("verify_log", "--table", "T1")
    output = capsys.readouterr().out
    assert "T1: ok" in output
    assert "2 rounds replayed" in output


def tamper(event: TableEvent, new_payload: str) -> None:
    """Go around the append-only triggers, as an attacker with DDL rights would."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("DROP TRIGGER tables_tableevent_no_update")
            cursor.execute(
                "UPDATE tables_tableevent SET payload = %s WHERE id = %s", [new_payload, event.pk]
            )
        else:
            # A superuser can switch user triggers off for the session.
            cursor.execute("SET session_replication_role = replica")
            cursor.execute(
                "UPDATE tables_tableevent SET payload = %s::jsonb WHERE id = %s",
                [new_payload, event.pk],
            )
            cursor.execute("SET session_replication_role = origin")


def test_verify_log_names_the_table_and_seq_of_a_tampered_row(tally_table: Table) -> None:
    play_round(tally_table, 5, 7)
    victim = TableEvent.objects.get(table=tally_table, type="tally.added", payload__amount=7)
    tamper(victim, '{"amount": 70}')
    result = verify_table(tally_table)
    assert not result.ok
    assert (
        result.problems[0]
        == f"table T1 seq {victim.seq}: the content does not match its hash (edited)"
    )
    with pytest.raises(Exception, match=f"T1 seq {victim.seq}"):
        call_command("verify_log", "--table", "T1")


def test_rebuilt_projections_equal_the_live_ones(tally_table: Table) -> None:
    play_round(tally_table, 5, 60)
    play_round(tally_table, 2)
    round_open(table_id=tally_table.pk, actor=None)
    table_command(table_id=tally_table.pk, command=Add(3), actor=None, source="tablet")

    def projections() -> tuple[Any, ...]:
        rounds = list(
            Round.objects.filter(table=tally_table)
            .order_by("number")
            .values_list("number", "status", "state", "last_seq", "closed_at")
        )
        alerts = list(Alert.objects.order_by("event_id").values_list("event_id", "code", "round"))
        return rounds, alerts

    live_projections = projections()
    Round.objects.filter(table=tally_table).update(state={}, status="open", closed_at=None)
    assert projections() != live_projections
    assert rebuild_projections(table_id=tally_table.pk) == 3
    assert projections() == live_projections


def test_state_cache_is_never_trusted_past_the_head(tally_table: Table) -> None:
    round_open(table_id=tally_table.pk, actor=None)
    table_command(table_id=tally_table.pk, command=Add(3), actor=None, source="tablet")
    engine_state.forget()
    tally_table.refresh_from_db()
    assert engine_state.current_state(tally_table).total == 3


def test_change_notice_is_pushed_after_commit_and_not_on_rollback(
    tally_table: Table, django_capture_on_commit_callbacks: Any
) -> None:
    listener = GroupListener(table_group(tally_table.pk))
    head = tally_table.head_seq
    try:
        with django_capture_on_commit_callbacks(execute=True):
            round_open(table_id=tally_table.pk, actor=None)
            assert listener.next_after(head, timeout=0.5) is None, "pushed before commit"
        tally_table.refresh_from_db()
        notice = listener.next_after(head, timeout=5)
        assert notice == {
            "type": "table.changed",
            "table": tally_table.pk,
            "seq": tally_table.head_seq,
        }
        with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuleError):
            table_command(table_id=tally_table.pk, command=Add(999), actor=None, source="tablet")
        assert listener.next_after(head, timeout=0.5) is None
    finally:
        listener.leave()


def test_the_admin_shows_the_log_read_only(tally_table: Table, admin_client: Any) -> None:
    assert admin_client.get("/admin/tables/tableevent/").status_code == 200
    event = TableEvent.objects.filter(table=tally_table).first()
    assert event is not None
    assert admin_client.get(f"/admin/tables/tableevent/{event.pk}/change/").status_code == 200
    assert admin_client.get("/admin/tables/tableevent/add/").status_code == 403
    response = admin_client.post(f"/admin/tables/tableevent/{event.pk}/delete/", {"post": "yes"})
    assert response.status_code == 403
    assert TableEvent.objects.filter(pk=event.pk).exists()


def test_an_append_writes_what_it_decided_and_reads_back_the_same(tally_table: Table) -> None:
    """Whatever statements the database gets, the rows read back are the ones the service
    returned: seq, hash, payload, round, head and projection."""
    round_open(table_id=tally_table.pk, actor=None)
    outcome = table_command(table_id=tally_table.pk, command=Add(3), actor=None, source="tablet")
    (returned,) = outcome.events
    assert outcome.round is not None
    stored = TableEvent.objects.get(pk=returned.pk)
    assert (stored.seq, stored.hash, stored.payload, stored.round_id) == (
        returned.seq, returned.hash, returned.payload, outcome.round.pk,
    )  # fmt: skip
    assert stored.recorded_at == returned.recorded_at
    tally_table.refresh_from_db()
    assert (tally_table.head_seq, tally_table.head_hash) == (returned.seq, returned.hash)
    round_ = Round.objects.get(pk=outcome.round.pk)
    assert (round_.last_seq, round_.state["total"]) == (returned.seq, 3)
    assert verify_table(tally_table).ok


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's one-statement write")
def test_an_ordinary_command_is_a_prepared_lock_and_one_prepared_write(tally_table: Table) -> None:
    round_open(table_id=tally_table.pk, actor=None)
    table_command(table_id=tally_table.pk, command=Add(1), actor=None, source="tablet")
    with CaptureQueriesContext(connection) as captured:
        table_command(table_id=tally_table.pk, command=Add(2), actor=None, source="tablet")
    # Nothing else is sent (inside the test's transaction BEGIN and COMMIT become savepoints)
    # but the lock, with the policy's read of the table's feed and holds in the same round trip
    # (tables.policy: is the round held, does a shoe feed the table), and the write.
    others = [
        query["sql"]
        for query in captured.captured_queries
        if query["sql"].split()[0] not in ("SAVEPOINT", "RELEASE")
    ]
    assert len(others) == 2, others
    assert others[0].endswith("FOR UPDATE -- and 1 more statement(s) in the same round trip")
    assert others[1].startswith("WITH inserted AS (INSERT INTO")
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [statement for (statement,) in cursor.fetchall()]
    assert any(text.startswith("SELECT") and text.endswith("FOR UPDATE") for text in prepared)
    assert any(
        text.startswith("SELECT EXISTS(SELECT 1 FROM devices_devicebinding") for text in prepared
    )
    assert any(text.startswith("WITH inserted AS (INSERT INTO") for text in prepared)
    assert verify_table(tally_table).ok


def test_a_duplicate_seq_is_refused_as_a_database_integrity_error(tally_table: Table) -> None:
    """The unique (table, seq) backstop speaks Django's error, whichever cursor wrote, and
    the log and the head stay as they were."""
    before = snapshot(tally_table)
    with transaction.atomic():
        table = lock_table(tally_table.pk)
        rows = chain_facts(
            table=table, round_=None, facts=[NewFact("tally.noted", {})], actor=None,
            source="tablet",
        )  # fmt: skip
        rows[0].seq = 1  # already taken by table.created
        with pytest.raises(IntegrityError), transaction.atomic():
            write_append(table, rows)
    engine_state.forget()
    assert snapshot(tally_table) == before
