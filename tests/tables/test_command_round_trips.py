"""What one dealer command costs the database: the token, the lock (with BEGIN and the policy's
reads in its pipeline), the write and the commit; and nothing before the lock.

Counts, not timings. The BEGIN is sent by the lock itself (tables/services/append_statements.py),
so these tests also check, on the pinned psycopg, that it leaves in the lock's one Sync and that
the transaction it starts is the command's: the row stays locked until the commit.
"""

from __future__ import annotations

import tempfile
from typing import Any

import psycopg
import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tables.auth_tokens import token_issue
from tables.models import Round, Table
from tables.services.append_statements import lock_table_with_facts
from tests.api.game_clients import (
    DECK,
    SIETE_SETTINGS,
    STUD_SETTINGS,
    Tablet,
    open_table,
    play_to_the_end,
)

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the pipeline and the raw statements are PostgreSQL's"
)
# Outside a test's own transaction: the command's transaction is the one that begins here.
committed = pytest.mark.django_db(transaction=True)


@pytest.fixture
def siete_table(dealer_dora: User, pit_boss_paula: User) -> Table:
    return open_table("SyM-R", "siete_y_medio", SIETE_SETTINGS, dealer_dora, pit_boss_paula)


def dealer_client(dealer: User) -> APIClient:
    token, _ = token_issue(user=dealer)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def frontend_messages(trace: str) -> list[str]:
    """The message names the client sent, from a libpq trace (`F <length> <name> ...`)."""
    return [line.split("\t")[2] for line in trace.splitlines() if line.split("\t")[:1] == ["F"]]


def locked_elsewhere(table: Table) -> bool:
    """Whether another session finds the table's row locked (it does not wait for it)."""
    other = connection.get_new_connection(connection.get_connection_params())
    try:
        other.execute("SELECT 1 FROM tables_table WHERE id = %s FOR UPDATE NOWAIT", [table.pk])
    except psycopg.errors.LockNotAvailable:
        return True
    finally:
        other.close()
    return False


@postgres_only
@committed
def test_the_lock_sends_begin_in_its_own_round_trip_and_holds_the_row_to_the_commit(
    siete_table: Table, dealer_dora: User
) -> None:
    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    with tempfile.TemporaryFile("w+") as trace, transaction.atomic():
        pgconn.trace(trace.fileno())
        pgconn.set_trace_flags(psycopg.pq.Trace.SUPPRESS_TIMESTAMPS)
        try:
            table, facts = lock_table_with_facts(siete_table.pk, dealer_dora.pk)
        finally:
            pgconn.untrace()
        trace.seek(0)
        sent = trace.read()
        assert locked_elsewhere(siete_table)
    messages = frontend_messages(sent)
    assert "BEGIN" in sent.split("\tSync", 1)[0]  # BEGIN went before the one Sync
    assert messages.count("Sync") == 1  # one round trip: BEGIN, the lock and its reads
    assert (table.pk, facts.dealer_assigned) == (siete_table.pk, True)
    assert not locked_elsewhere(siete_table)  # the commit let it go


@postgres_only
@committed
def test_a_refused_lock_rolls_its_transaction_back(siete_table: Table) -> None:
    with pytest.raises(Exception, match="no such table"), transaction.atomic():
        lock_table_with_facts(siete_table.pk + 1000, None)
    assert connection.connection.pgconn.transaction_status == psycopg.pq.TransactionStatus.IDLE
    assert Table.objects.filter(pk=siete_table.pk).exists()  # the connection works on


@postgres_only
@committed
def test_a_dealer_command_is_the_token_the_lock_the_write_and_the_commit(
    siete_table: Table, dealer_dora: User
) -> None:
    client = dealer_client(dealer_dora)
    base = f"/api/tables/{siete_table.pk}/siete"
    assert client.post(f"{base}/start-round", {}, format="json").status_code == 201
    first = client.post(f"{base}/place-wager", {"box": 1, "amount": 10}, format="json")
    assert first.status_code == 201  # the process's state cache now holds the table's head
    with CaptureQueriesContext(connection) as queries:
        second = client.post(f"{base}/place-wager", {"box": 2, "amount": 10}, format="json")
    assert second.status_code == 201, second.content
    statements = [query["sql"] for query in queries]
    assert len(statements) == 5, statements
    # Django notes the BEGIN as it opens the block; it leaves with the lock (the test above).
    token, begin, lock, write, commit = statements
    assert begin == "BEGIN"
    assert "knox_authtoken" in token
    assert lock.startswith('SELECT "id"')
    assert "FOR UPDATE" in lock
    assert "same round trip" in lock  # the dealer's assignment and the feed went with it
    assert write.startswith("WITH inserted AS (INSERT INTO")
    assert commit == "COMMIT"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "body", "headers"),
    [
        ("siete/place-wager", {"box": 1, "amount": 10}, {}),
        ("siete/place-wager", {"box": 1, "amount": 10, "colour": "red"}, {}),
        ("rounds", {}, {}),
        # A skewed tablet clock's alert reads the table first, on its own.
        ("rounds", {}, {"X-Tablet-Time": "2020-01-01T00:00:00Z"}),
    ],
)
def test_a_command_at_a_table_that_does_not_exist_is_the_same_404(
    siete_table: Table, dealer_dora: User, path: str, body: dict[str, Any], headers: dict[str, str]
) -> None:
    """Read by the command's lock alone (no read before it): the API's one 404, before the
    body's own checks."""
    missing = siete_table.pk + 1000
    answer = dealer_client(dealer_dora).post(
        f"/api/tables/{missing}/{path}", body, format="json", headers=headers
    )
    assert answer.status_code == 404
    assert answer.json() == {"code": "not_found", "detail": "There is no such table.", "fields": {}}


@postgres_only
@pytest.mark.django_db
def test_a_field_the_command_does_not_take_is_still_a_400_naming_it(
    siete_table: Table, dealer_dora: User
) -> None:
    client = dealer_client(dealer_dora)
    base = f"/api/tables/{siete_table.pk}/siete"
    assert client.post(f"{base}/start-round", {}, format="json").status_code == 201
    head = Table.objects.values_list("head_seq", flat=True).get(pk=siete_table.pk)
    answer = client.post(
        f"{base}/place-wager", {"box": 1, "amount": 10, "colour": "red"}, format="json"
    )
    assert answer.status_code == 400, answer.json()
    assert answer.json()["code"] == "invalid_input"
    assert "colour" in answer.json()["fields"]
    assert Table.objects.values_list("head_seq", flat=True).get(pk=siete_table.pk) == head


@postgres_only
@committed
def test_a_hands_end_and_the_next_hands_opening_read_nothing_twice(
    dealer_dora: User, pit_boss_paula: User
) -> None:
    """The pots' award writes every seat's stack in one statement, and the next hand's opening
    reads the table by its lock alone, with the policy's reads in the lock's round trip (each
    had been a round trip or two per seat or per check: a Stud hand's two slowest commands)."""
    table = open_table("Stud-R", "seven_card_stud", STUD_SETTINGS, dealer_dora, pit_boss_paula)
    tablet = Tablet(dealer_client(dealer_dora), table, "stud")
    for seat, player in enumerate(("ana", "bruno", "carla", "dario"), start=1):
        tablet.post("seats/sit", seat=seat, player=player, buy_in=500)
    tablet.post("rounds")
    deck = DECK.copy()
    with CaptureQueriesContext(connection) as queries:
        play_to_the_end(tablet, deck)
    # (The reads of the table's screen between commands read the seats too, without a lock.)
    award = [q["sql"] for q in queries if q["sql"].startswith('UPDATE "tables_seat"')]
    locked_seats = [
        q["sql"] for q in queries if "tables_seat" in q["sql"] and "FOR UPDATE" in q["sql"]
    ]
    assert (len(award), locked_seats) == (1, []), award  # one UPDATE for the four seats
    with CaptureQueriesContext(connection) as queries:
        tablet.post("rounds")
    statements = [query["sql"] for query in queries]
    assert len(statements) == 8, statements
    token, begin, lock, seats, closing, new_round, opening, commit = statements
    assert (begin, commit) == ("BEGIN", "COMMIT")
    assert "knox_authtoken" in token
    assert "same round trip" in lock
    assert seats.startswith('SELECT "tables_seat"')  # the players the hand is dealt to
    assert closing.startswith("WITH inserted AS")
    assert opening.startswith("WITH inserted AS")
    assert new_round.startswith('INSERT INTO "tables_round"')
    numbers = list(Round.objects.filter(table=table).values_list("number", flat=True))
    assert sorted(numbers) == [1, 2]
