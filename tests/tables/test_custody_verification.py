"""`verify_log` checks a table's custody facts as it checks its rounds: a count or a slip edited
in the stored log is found at its seq, by its hash or, sealed again, by the custody rules; a
fact the rules refuse is a problem at its seq. Runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection

from tables.engine.custody import BuyIn
from tables.engine.custody.codec import encode
from tables.log.chain import stored_chain_hash
from tables.models import Table, TableEvent
from tables.services.append import NewFact
from tables.services.commands import lock_table, record
from tables.services.custody.log import last_opener_event
from tables.verification import log_rows, verify_table
from tests.reports.custody_floor import Floor, make_siete_table, past_shift

pytestmark = pytest.mark.django_db


@pytest.fixture
def books(
    dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User, cashier_carmen: User
) -> Floor:
    """A Siete y Medio table whose last shift was opened, filled (slip of 500), bought into,
    closed and counted."""
    table = make_siete_table("SyM-BOOKS")
    floor = Floor(table, dealer_dora, pit_boss_paula, pit_boss_pedro, cashier_carmen)
    past_shift(floor)
    floor.refresh()
    return floor


def custody_row(table: Table, event_type: str) -> TableEvent:
    return TableEvent.objects.get(table=table, type=event_type)


def edit_payload(cursor: Any, event: TableEvent, **changes: Any) -> None:
    """Change fields of a stored payload in place (the triggers lifted)."""
    text = json.dumps(event.payload | changes)
    cast = "::jsonb" if connection.vendor == "postgresql" else ""
    cursor.execute(
        f"UPDATE tables_tableevent SET payload = %s{cast} WHERE id = %s", [text, event.pk]
    )


def edited_problem(table: Table, seq: int) -> str:
    return f"table {table.name} seq {seq}: the content does not match its hash (edited)"


def refusal_prefix(table: Table, seq: int, code: str) -> str:
    return f"table {table.name} seq {seq}: the custody rules refuse it ({code}: "


# Each edit changes money the books add up: a slip's chips, a count, the drop, a buy-in; and
# where the custody rules see it too, the fact they refuse (the event and its code): the cage
# issues only what was requested, a dealer confirms only the pit boss's count.
EDITS: dict[str, tuple[str, str, Any, tuple[str, str] | None]] = {
    "the fill slip's chips": (
        "custody.fill_requested", "chips", {"100": 6},
        ("custody.fill_issued", "slip_amount_differs"),
    ),
    "the opener's count": (
        "custody.opener", "chips", {"5": 100, "25": 40, "100": 11},
        ("custody.opener", "count_mismatch"),
    ),
    "the closer's count": (
        "custody.closer", "chips", {"5": 100, "25": 40, "100": 2},
        ("custody.closer", "count_mismatch"),
    ),
    "the counted drop": ("custody.drop_counted", "amount", 4500, None),
    "a buy-in": ("custody.buy_in", "amount", 40, None),
}  # fmt: skip


@pytest.mark.parametrize("edit", EDITS)
def test_verify_log_finds_an_edited_custody_fact_at_its_seq(books: Floor, edit: str) -> None:
    event_type, field, value, refused = EDITS[edit]
    victim = custody_row(books.table, event_type)
    assert verify_table(books.table).ok
    with triggers_lifted() as cursor:
        edit_payload(cursor, victim, **{field: value})
    result = verify_table(books.table)
    assert result.problems[0] == edited_problem(books.table, victim.seq)
    if refused is None:
        assert result.problems[1:] == []
    else:
        refused_type, code = refused
        refused_at = custody_row(books.table, refused_type).seq
        assert len(result.problems) == 2
        assert result.problems[1].startswith(refusal_prefix(books.table, refused_at, code))
    assert result.events_checked == books.table.head_seq
    with pytest.raises(Exception, match=f"SyM-BOOKS seq {victim.seq}: the content does not"):
        call_command("verify_log", "--table", "SyM-BOOKS")


@contextmanager
def triggers_lifted() -> Iterator[Any]:
    """Go around the append-only triggers, as an attacker with DDL rights would (the test's
    transaction puts the SQLite trigger back)."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("DROP TRIGGER tables_tableevent_no_update")
            yield cursor
        else:
            cursor.execute("SET session_replication_role = replica")
            try:
                yield cursor
            finally:
                cursor.execute("SET session_replication_role = origin")


def seal_again(table: Table, cursor: Any) -> None:
    """Recompute every link of the table's chain and its head, as an attacker who knows the
    hash would after editing a row: the hashes then vouch for the edit."""
    rows = list(log_rows(table))
    prev = rows[0][10]
    for row in rows:
        digest = stored_chain_hash(prev, table.pk, *row[:10])
        cursor.execute(
            "UPDATE tables_tableevent SET prev_hash = %s, hash = %s "
            "WHERE table_id = %s AND seq = %s",
            [prev, digest, table.pk, row[0]],
        )
        prev = digest
    Table.objects.filter(pk=table.pk).update(head_hash=prev)


@pytest.mark.parametrize("edit", [name for name, (*_, refused) in EDITS.items() if refused])
def test_a_slip_or_a_count_edited_and_sealed_again_is_refused_by_the_custody_rules(
    books: Floor, edit: str
) -> None:
    """The hashes vouch for the edit; the next signature no longer matches it (the cage's
    for the chips it issued, the dealer's for the pit boss's count), and the fold refuses."""
    event_type, field, value, refused = EDITS[edit]
    assert refused is not None
    victim = custody_row(books.table, event_type)
    with triggers_lifted() as cursor:
        edit_payload(cursor, victim, **{field: value})
        seal_again(books.table, cursor)
    refused_at = custody_row(books.table, refused[0]).seq
    result = verify_table(books.table)
    assert len(result.problems) == 1
    assert result.problems[0].startswith(refusal_prefix(books.table, refused_at, refused[1]))
    with pytest.raises(Exception, match=f"seq {refused_at}: the custody rules refuse it"):
        call_command("verify_log", "--table", "SyM-BOOKS")


def test_verify_log_reports_a_custody_fact_the_rules_refuse(books: Floor) -> None:
    """A buy-in logged after the closer, around the services (which refuse it): the chain is
    sound, and the custody fold names the fact and its code."""
    shift = {
        name: last_opener_event(books.table).payload[name]  # type: ignore[union-attr]
        for name in ("gaming_day", "shift")
    }
    event_type, payload = encode(BuyIn(100))
    table = lock_table(books.table.pk)
    [late] = record(
        table, None, [NewFact(event_type, payload | shift)], books.dealer, "tablet", None, None
    )
    result = verify_table(books.table)
    assert result.problems == [
        f"table SyM-BOOKS seq {late.seq}: the custody rules refuse it "
        "(table_closed: Cannot record a buy-in: the table is closed.)"
    ]
    with pytest.raises(Exception, match=f"SyM-BOOKS seq {late.seq}: the custody rules refuse"):
        call_command("verify_log", "--table", "SyM-BOOKS")
