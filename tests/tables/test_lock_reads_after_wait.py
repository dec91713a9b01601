"""The policy's reads that travel with the table lock (the dealer's assignment, the shoe's
feed and holds) see what the previous holder of the lock committed while the command waited.

Read inside the lock statement they would not: PostgreSQL takes a statement's snapshot before
it waits for a row lock, and only the locked row itself is read again after the wait. So the
reads are statements of their own, sent behind the lock in the same round trip.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from devices.models import Device, DeviceBinding, DeviceGap
from tables.engine.errors import RuleError
from tables.models import DealerAssignment, Table
from tables.services.commands import lock_table, table_command_from_json
from tests.api.game_clients import open_table

SIETE_SETTINGS = {"min_stake": 10, "max_stake": 200}

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,  # threads and a transactional database: each test flushes it
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the pipeline is PostgreSQL's"),
]


def refusal_code(table: Table, actor: User) -> str | None:
    """What a tablet's card entry at `table` is refused with (None: recorded)."""
    try:
        table_command_from_json(
            table_id=table.pk, command_type="record_card", data={"card": "3O"}, actor=actor
        )
    except RuleError as error:
        return error.code
    return None


def while_the_lock_is_held(table: Table, change: Any, then: Any) -> Any:
    """`then()` in another thread, started while this one holds the table lock; `change()`
    is committed under the lock once `then` is waiting for it. Returns what `then` returned."""
    answer: list[Any] = []

    def waiter() -> None:
        try:
            answer.append(then())
        finally:
            connections.close_all()

    with transaction.atomic():
        lock_table(table.pk)
        thread = threading.Thread(target=waiter)
        thread.start()
        wait_until_blocked()
        change()
    thread.join(timeout=30)
    assert not thread.is_alive()
    return answer[0]


def wait_until_blocked() -> None:
    """Until another session waits for a lock (pg_stat_activity), for at most 10 s."""
    deadline = time.monotonic() + 10
    with connections["default"].cursor() as cursor:
        while time.monotonic() < deadline:
            # The activity view is read once per transaction unless its snapshot is cleared.
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND datname = current_database()"
            )
            if cursor.fetchone()[0]:
                return
            time.sleep(0.02)
    raise AssertionError("the command never waited for the table lock")


@pytest.fixture
def siete_table(dealer_dora: User, pit_boss_paula: User) -> Table:
    return open_table("SyM-L", "siete_y_medio", SIETE_SETTINGS, dealer_dora, pit_boss_paula)


@pytest.fixture
def bound_shoe(siete_table: Table, pit_boss_paula: User, pit_boss_pedro: User) -> Device:
    shoe = Device.objects.create(
        serial="SIM-L", status=Device.Status.ACTIVE, online=False, enrolled_at=timezone.now()
    )
    DeviceBinding.objects.create(
        device=shoe, table=siete_table, requested_by=pit_boss_paula, requested_at=timezone.now(),
        approved_by=pit_boss_pedro, approved_at=timezone.now(),
    )  # fmt: skip
    return shoe


def test_a_hold_committed_while_the_command_waited_refuses_it(
    siete_table: Table, dealer_dora: User, bound_shoe: Device
) -> None:
    assert refusal_code(siete_table, dealer_dora) != "round_held"  # no hold yet

    def open_gap() -> None:
        DeviceGap.objects.create(
            device=bound_shoe, boot_id=7, first_missing=12, last_missing=13,
            opened_at=timezone.now(),
        )  # fmt: skip

    code = while_the_lock_is_held(
        siete_table, open_gap, lambda: refusal_code(siete_table, dealer_dora)
    )
    assert code == "round_held"


def test_a_shoe_put_online_while_the_command_waited_refuses_the_tablets_card(
    siete_table: Table, dealer_dora: User, bound_shoe: Device
) -> None:
    def online() -> None:
        Device.objects.filter(pk=bound_shoe.pk).update(online=True)

    code = while_the_lock_is_held(
        siete_table, online, lambda: refusal_code(siete_table, dealer_dora)
    )
    assert code == "shoe_feeds_table"


def test_a_dealer_taken_off_the_table_while_his_command_waited_is_refused(
    siete_table: Table, dealer_dora: User
) -> None:
    def relieve() -> None:
        DealerAssignment.objects.filter(dealer=dealer_dora, table=siete_table).update(
            ended_at=timezone.now()
        )

    code = while_the_lock_is_held(
        siete_table, relieve, lambda: refusal_code(siete_table, dealer_dora)
    )
    assert code == "not_your_table"


def test_a_command_costs_the_lock_with_its_reads_the_write_and_the_commit(
    siete_table: Table, dealer_dora: User
) -> None:
    table_command_from_json(
        table_id=siete_table.pk, command_type="start_round", data={}, actor=dealer_dora
    )  # the state is cached now, as on the worker that served the table last
    with CaptureQueriesContext(connection) as queries:
        table_command_from_json(
            table_id=siete_table.pk, command_type="place_wager", data={"box": 1, "amount": 20},
            actor=dealer_dora,
        )  # fmt: skip
    statements = [query["sql"] for query in queries]
    # BEGIN goes out with the lock and its two reads, in the same pipeline.
    assert len(statements) == 4, statements
    assert statements[0] == "BEGIN"
    assert "FOR UPDATE" in statements[1]
    assert "2 more statement(s)" in statements[1]
    assert statements[2].startswith("WITH inserted AS (INSERT")
    assert statements[3] == "COMMIT"
