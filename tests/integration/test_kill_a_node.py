"""Two web nodes behind HAProxy; one is killed (SIGKILL) in the middle of a floor's load.

Dealers play Siete y Medio rounds and Stud hands through the balancer, every command with an
Idempotency-Key, and send a cut request again with the same key. The node dies at the worst
moment for a client: right after it committed a command, before its answer left (its switch,
tests/integration/die_after_commit.py, kills its own process group); whatever else it had in
flight dies with it. HAProxy does not resend a write (docs/scale-out.md), so the client's own
retry, with the same key, reaches the other node and must get the stored answer. Afterwards
every command a client was answered for is in the log exactly once, with the seqs it was
answered with, the log has no gap, and `verify_log` passes.
Before the load, a push written on one node reaches a websocket open on the other (Redis).
"""

from __future__ import annotations

import io
import json
import os
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.test import Client
from websockets.sync.client import connect
from websockets.typing import Origin

from bench.dealer_play import SIETE
from tables.models import Table, TableEvent
from tables.services import custody, seating
from tables.services.floor import dealer_assign, table_create, table_set_status
from tests.integration.retrying_dealers import RetryingClient, RetryingDealer, sign_in
from tests.integration.web_nodes import NODE_SECRET_KEY, Balancer, WebNode, haproxy_available

# The balancer's port, and the nodes' on the next two: set it where several runs share a machine.
BALANCER_PORT = int(os.environ.get("KILL_NODE_TEST_PORT", "9400"))
NODE_A_PORT, NODE_B_PORT = BALANCER_PORT + 1, BALANCER_PORT + 2
PASSWORD = "two-node-dealer-password"
STUD = "seven_card_stud"
GAMES = (SIETE, STUD, SIETE, STUD)
LOAD_BEFORE_KILL, LOAD_AFTER_KILL = 10.0, 12.0
REQUEST_INTERVAL = 0.1
# Opening the next round, the server first closes the settled one on its own: no client key.
SERVER_CLOSES_ROUND = "table.round_closed"
OPENING_CHIPS = {"5": 100, "25": 40, "100": 10}

pytestmark = [
    pytest.mark.integration,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not haproxy_available(),
        reason="the kill-a-node test needs HAProxy (/usr/sbin/haproxy; apt-get install haproxy)",
    ),
]


def open_floor() -> list[tuple[Table, User]]:
    boss = User.objects.create_user("two-node-boss")
    boss.groups.add(Group.objects.get_or_create(name="pit_boss")[0])
    dealer_group = Group.objects.get_or_create(name="dealer")[0]
    floor = []
    for number, game in enumerate(GAMES, start=1):
        siete = game == SIETE
        table = table_create(
            name=f"Node-{number}", game=game, seat_count=6 if siete else 8, actor=boss,
            settings={"min_stake": 2, "max_stake": 2, "chip": 1, "ties": "push"} if siete
            else {"small_bet": 10, "rake_percent": "5", "rake_cap": 30},
        )  # fmt: skip
        table_set_status(table_id=table.pk, status=Table.Status.OPEN, actor=boss)
        dealer = User.objects.create_user(f"node-dealer-{number}", password=PASSWORD)
        dealer.groups.add(dealer_group)
        dealer_assign(table_id=table.pk, dealer=dealer, by=boss)
        # The tray counted in and confirmed by the dealer: the shift's opener, before buy-ins.
        custody.custody_open(table_id=table.pk, pit_boss=boss, chips=OPENING_CHIPS)
        custody.count_confirm(table_id=table.pk, dealer=dealer, closing=False)
        if not siete:
            for seat in range(1, 5):
                seating.player_seat(
                    table_id=table.pk, seat=seat, player=f"p{seat}", buy_in=100_000, actor=boss
                )
        table.refresh_from_db()
        floor.append((table, dealer))
    return floor


@pytest.fixture
def nodes(tmp_path: Path) -> Iterator[tuple[WebNode, WebNode, Balancer]]:
    node_a = WebNode("a", NODE_A_PORT, tmp_path)
    node_b = WebNode("b", NODE_B_PORT, tmp_path)
    balancer = Balancer(BALANCER_PORT, [node_a, node_b], tmp_path)
    try:
        for node in (node_a, node_b):
            node.start()
        for node in (node_a, node_b):
            node.wait_ready()
        balancer.start()
        yield node_a, node_b, balancer
    finally:
        balancer.stop()
        for node in (node_a, node_b):
            node.stop()


def session_cookie(user: User, settings: Any) -> str:
    """A signed-in session in the shared database, signed with the nodes' key."""
    settings.SECRET_KEY = NODE_SECRET_KEY
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def test_a_push_written_on_one_node_reaches_a_socket_on_the_other(
    nodes: tuple[WebNode, WebNode, Balancer], settings: Any
) -> None:
    node_a, node_b, _ = nodes
    (table, dealer), *_ = open_floor()
    cookie = session_cookie(dealer, settings)
    with connect(
        f"ws://127.0.0.1:{node_b.port}/ws/tables/{table.pk}/",
        origin=Origin(f"http://127.0.0.1:{node_b.port}"),
        additional_headers={"Cookie": f"sessionid={cookie}"},
        open_timeout=10,
    ) as socket:
        time.sleep(0.5)  # the consumer has joined its group once the handshake is done
        token = sign_in(node_a.port, dealer.get_username(), PASSWORD)
        answer = RetryingClient(node_a.port, token).once(
            "POST", f"/api/tables/{table.pk}/siete/start-round", {}, {}
        )
        assert answer[0] == 201, answer
        seq = answer[1]["events"][-1]["seq"]
        notice = json.loads(socket.recv(timeout=10))
    assert notice == {"type": "table.changed", "table": table.pk, "seq": seq}
    assert node_a.requests_served("start-round") == 1
    assert node_b.requests_served("start-round") == 0


def test_a_node_killed_between_commit_and_answer_loses_and_duplicates_nothing(
    nodes: tuple[WebNode, WebNode, Balancer],
) -> None:
    node_a, node_b, balancer = nodes
    floor = open_floor()
    heads_before = {table.pk: table.head_seq for table, _ in floor}
    dealers = [
        RetryingDealer(
            balancer.port, sign_in(balancer.port, dealer.get_username(), PASSWORD),
            table.pk, table.game, seed=number, interval=REQUEST_INTERVAL,
        )
        for number, (table, dealer) in enumerate(floor)
    ]  # fmt: skip
    stop = threading.Event()
    threads = [threading.Thread(target=dealer.run, args=(stop,)) for dealer in dealers]
    for thread in threads:
        thread.start()
    try:
        time.sleep(LOAD_BEFORE_KILL)
        served_by_a = node_a.requests_served("/api/tables/")
        killed_key, killed_path = node_a.die_after_next_commit()
        killed_at = time.monotonic()
        time.sleep(LOAD_AFTER_KILL)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    failures = [f"{d.table_id}: {d.failure!r}" for d in dealers if d.failure is not None]
    assert failures == [], [*failures, node_b.server_log()[-3000:]]
    records = [dealer.record for dealer in dealers]
    # Both nodes carried the floor before the kill, and the floor went on without one.
    assert served_by_a > 0
    assert node_b.requests_served("/api/tables/") > 0
    assert all(any(t > killed_at + 2 for t in record.answered_after) for record in records)
    assert [error for record in records for error in record.server_errors] == []

    # The command node a committed and never answered: its client got a 502, sent it again
    # with the same key, and node b answered it from the idempotency record.
    killed = [a for r in records for a in r.answers if a.key == killed_key]
    assert len(killed) == 1, (killed_key, killed_path)
    assert killed_path.endswith(killed[0].path), (killed_path, killed[0])
    assert killed[0].attempts > 1, killed[0]
    assert killed[0].replayed, killed[0]
    replayed = sum(a.replayed for r in records for a in r.answers)
    assert replayed >= 1

    answered: dict[int, dict[str, list[int]]] = defaultdict(dict)
    for dealer in dealers:
        for answer in dealer.record.answers:
            # One answer per key: a key is never reused for another command.
            assert answer.key not in answered[dealer.table_id], answer
            answered[dealer.table_id][answer.key] = answer.seqs
    for table, _ in floor:
        table.refresh_from_db()
        events = TableEvent.objects.filter(table=table).order_by("seq")
        log = list(events.values_list("seq", "idempotency_key", "type"))
        # No gap, no duplicate: 1..head, and the head is the table's.
        assert [seq for seq, _, _ in log] == list(range(1, table.head_seq + 1))
        by_key: dict[str, list[int]] = defaultdict(list)
        for seq, key, kind in log:
            if seq <= heads_before[table.pk] or kind == SERVER_CLOSES_ROUND:
                continue
            assert key is not None, f"{table.name} seq {seq} ({kind}) came from no client command"
            by_key[key].append(seq)
        # Exactly once: every command answered 201 is in the log with the seqs it was answered
        # with, and nothing else is.
        assert dict(by_key) == answered[table.pk], table.name
    output = io.StringIO()
    call_command("verify_log", "--full", stdout=output)
    assert "0 problems" in output.getvalue(), output.getvalue()

    retried = sum(a.attempts > 1 for r in records for a in r.answers)
    commands = sum(len(r.answers) for r in records)
    print(
        f"\n{commands} commands answered, {sum(r.rounds for r in records)} rounds/hands, "
        f"{sum(r.cut_requests for r in records)} cut requests sent again, {retried} commands "
        f"answered after a retry ({replayed} from the idempotency record), "
        f"{sum(len(r.refusals) for r in records)} refusals; node a served {served_by_a} "
        f"table requests before it was killed after committing {killed_path}"
    )
