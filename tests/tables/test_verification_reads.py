"""The verifier's own read of the log (on PostgreSQL: tuples with times formatted in SQL)
hashes exactly what was written, and still finds every kind of edit and every gap.

Runs on SQLite by default and on PostgreSQL with DATABASE_URL, where the SQL read is used.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from django.db import connection, transaction

from tables.log.chain import ChainedFact, canonical_time, chain_hash
from tables.models import Table, TableEvent
from tables.services.commands import table_command
from tables.services.floor import round_open
from tables.verification import _orm_chunks, log_rows, verify_table
from tests.tables.tally_game import Add, CloseRound

pytestmark = pytest.mark.django_db

# Times at the edges of the canonical form: small years, whole and last microseconds,
# other zones (stored as the same instant, read back in UTC).
AWKWARD_TIMES = [
    datetime(1, 1, 1, tzinfo=UTC),
    datetime(999, 12, 31, 23, 59, 59, 999_999, tzinfo=UTC),
    datetime(2026, 3, 29, 1, 30, 0, 1, tzinfo=timezone(timedelta(hours=1))),
    datetime(2026, 10, 25, 2, 30, 0, 500_000, tzinfo=timezone(timedelta(hours=-5, minutes=-30))),
    datetime(9999, 12, 31, 23, 59, 59, 999_999, tzinfo=UTC),
]
AWKWARD_PAYLOADS: list[dict[str, Any]] = [
    {"note": "Bastos ñ 🂡 日本", "quote": 'a "b" \\ c', "ctl": "\t\n\x01", "sep": "\u2028"},
    {"nested": {"z": [1, {"y": None, "x": [True, False]}], "a": {}}, "big": 2**70, "neg": -3},
    {"amount": "2.50", "none": None, "empty": [], "": "empty key"},
]


def append_raw(table: Table, rows: list[tuple[str, dict[str, Any], datetime, datetime]]) -> None:
    """Chained rows written straight to the log (as the benchmark writes its shift)."""
    table.refresh_from_db()
    seq, head = table.head_seq, table.head_hash
    events = []
    for event_type, payload, occurred, recorded in rows:
        seq += 1
        fact = ChainedFact(
            table.pk,
            seq,
            None,
            event_type,
            payload,
            1,
            None,
            "system",
            occurred,
            recorded,
            f"k{seq}",
        )
        digest = chain_hash(head, fact)
        events.append(
            TableEvent(
                table=table, seq=seq, type=event_type, payload=payload, source="system",
                occurred_at=occurred, recorded_at=recorded, idempotency_key=f"k{seq}",
                prev_hash=head, hash=digest,
            )
        )  # fmt: skip
        head = digest
    TableEvent.objects.bulk_create(events)
    Table.objects.filter(pk=table.pk).update(head_seq=seq, head_hash=head)


@pytest.fixture
def varied_table(tally_table: Table) -> Table:
    round_open(table_id=tally_table.pk, actor=None)
    for amount in (5, 7):
        table_command(table_id=tally_table.pk, command=Add(amount), actor=None, source="shoe")
    table_command(table_id=tally_table.pk, command=CloseRound(), actor=None, source="tablet")
    rows = [
        ("dealer.note", payload, occurred, AWKWARD_TIMES[-1 - index % len(AWKWARD_TIMES)])
        for index, (payload, occurred) in enumerate(
            (AWKWARD_PAYLOADS[i % len(AWKWARD_PAYLOADS)], AWKWARD_TIMES[i])
            for i in range(len(AWKWARD_TIMES))
        )
    ]
    append_raw(tally_table, rows)
    play = [("table.note", {"n": n}, datetime.now(UTC), datetime.now(UTC)) for n in range(3)]
    append_raw(tally_table, play)
    tally_table.refresh_from_db()
    return tally_table


def test_the_verifier_reads_what_was_written(varied_table: Table) -> None:
    with transaction.atomic():
        read = list(log_rows(varied_table))
        through_models = [row for chunk in _orm_chunks(varied_table) for row in chunk]
    assert read == through_models
    stored = TableEvent.objects.filter(table=varied_table).order_by("seq")
    for row, event in zip(read, stored, strict=True):
        assert row[7] == canonical_time(event.occurred_at)
        assert row[8] == canonical_time(event.recorded_at)
        assert row[3] == event.payload
    result = verify_table(varied_table)
    assert result.ok, result.problems
    assert result.events_checked == varied_table.head_seq
    assert result.rounds_replayed == 1


def tamper(event_id: int, column: str, value: Any) -> None:
    """Go around the append-only triggers, as an attacker with DDL rights would."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("DROP TRIGGER tables_tableevent_no_update")
            cursor.execute(
                f"UPDATE tables_tableevent SET {column} = %s WHERE id = %s", [value, event_id]
            )
        else:
            cast = "::jsonb" if column == "payload" else ""
            cursor.execute("SET session_replication_role = replica")
            cursor.execute(
                f"UPDATE tables_tableevent SET {column} = %s{cast} WHERE id = %s", [value, event_id]
            )
            cursor.execute("SET session_replication_role = origin")


def time_value(moment: datetime) -> Any:
    return TableEvent._meta.get_field("occurred_at").get_db_prep_value(moment, connection)


EDITS = {
    "payload, one value": ("payload", '{"n": 10}'),
    "payload, a key added": ("payload", '{"n": 1, "m": null}'),
    "type": ("type", "table.notes"),
    "source": ("source", "tablet"),
    "schema version": ("schema_version", 2),
    "idempotency key": ("idempotency_key", None),
    "occurred_at, one microsecond": ("occurred_at", "+1us"),
    "recorded_at, same instant in another zone": ("recorded_at", "zone"),
}


@pytest.mark.parametrize("edit", EDITS)
def test_every_edited_field_is_found_at_its_seq(varied_table: Table, edit: str) -> None:
    column, value = EDITS[edit]
    victim = TableEvent.objects.get(table=varied_table, type="table.note", payload__n=1)
    if value == "+1us":
        value = time_value(victim.occurred_at + timedelta(microseconds=1))
    elif value == "zone":
        # The same instant: not an edit at all, the hash must still match.
        value = time_value(victim.recorded_at.astimezone(timezone(timedelta(hours=3))))
    tamper(victim.pk, column, value)
    result = verify_table(varied_table)
    if edit.endswith("another zone"):
        assert result.ok, result.problems
        return
    assert result.problems == [
        f"table T1 seq {victim.seq}: the content does not match its hash (edited)"
    ]
    assert result.events_checked == varied_table.head_seq


def test_a_moved_engine_event_is_found(varied_table: Table) -> None:
    """An engine event taken out of its round: its hash covers the round number."""
    victim = TableEvent.objects.get(table=varied_table, type="tally.added", payload__amount=7)
    tamper(victim.pk, "round_id", None)
    result = verify_table(varied_table)
    assert result.problems[0] == (
        f"table T1 seq {victim.seq}: the content does not match its hash (edited)"
    )


def test_a_deleted_event_leaves_a_gap(varied_table: Table) -> None:
    victim = TableEvent.objects.get(table=varied_table, type="table.note", payload__n=1)
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("DROP TRIGGER tables_tableevent_no_delete")
            cursor.execute("DELETE FROM tables_tableevent WHERE id = %s", [victim.pk])
        else:
            cursor.execute("SET session_replication_role = replica")
            cursor.execute("DELETE FROM tables_tableevent WHERE id = %s", [victim.pk])
            cursor.execute("SET session_replication_role = origin")
    result = verify_table(varied_table)
    assert result.problems == [
        f"table T1 seq {victim.seq + 1}: expected seq {victim.seq} (a gap or a repeat)"
    ]


def test_a_changed_projection_is_found(varied_table: Table) -> None:
    round_ = varied_table.rounds.get()
    round_.state = round_.state | {"total": 13}
    round_.save(update_fields=["state"])
    result = verify_table(varied_table)
    assert result.problems == ["table T1 round 1: the replay differs from its projection"]


def test_since_limits_the_rounds_compared_not_the_chain(varied_table: Table) -> None:
    round_ = varied_table.rounds.get()
    later = verify_table(varied_table, since=round_.opened_at + timedelta(seconds=1))
    assert (later.ok, later.rounds_replayed, later.events_checked) == (
        True, 0, varied_table.head_seq,
    )  # fmt: skip
    round_.state = round_.state | {"total": 13}
    round_.save(update_fields=["state"])
    assert verify_table(varied_table, since=round_.opened_at + timedelta(seconds=1)).ok
    earlier = verify_table(varied_table, since=round_.opened_at)
    assert (earlier.rounds_replayed, len(earlier.problems)) == (1, 1)
