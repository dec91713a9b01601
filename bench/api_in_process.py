"""Latency of the dealer's API in process on PostgreSQL: a full six-box Siete y Medio round
and a full eight-player Seven-Card Stud hand, request by request, through the whole stack
(middleware, authentication, DRF, services, engine, log, projections, commit, the push).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench REDIS_URL=redis://127.0.0.1:6379/1 \
        .venv/bin/python bench/api_in_process.py --rounds 2

Requests go through Django's in-process test client, so the figures exclude the HTTP
server and the network but include everything the service itself does. This is 0600ff6's
bench/api_latency.py (before it moved to real HTTP), with one addition the books now
require before a round is played: the table's opener, counted by the pit boss and confirmed
by the table's dealer. Run beside that commit's own script, the two do the same rounds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import uuid
from collections.abc import Callable
from typing import Any

from _django import setup

DECK_FRENCH = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class TimedClient:
    def __init__(self, client: Any, table_id: int) -> None:
        self.client = client
        self.table_id = table_id
        self.samples: list[float] = []

    def post(self, path: str, **data: Any) -> dict[str, Any]:
        start = time.perf_counter()
        response = self.client.post(f"/api/tables/{self.table_id}/{path}", data, format="json")
        self.samples.append(time.perf_counter() - start)
        if response.status_code >= 300:
            raise RuntimeError(f"{path} {data}: {response.json()}")
        return dict(response.json())

    def state(self) -> dict[str, Any]:
        start = time.perf_counter()
        body = self.client.get(f"/api/tables/{self.table_id}").json()
        self.samples.append(time.perf_counter() - start)
        return dict(body["state"])


def siete_round(tablet: TimedClient, rng: random.Random) -> None:
    deck = [f"{rank}{suit}" for rank in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12) for suit in "OCEB"]
    rng.shuffle(deck)
    tablet.post("siete/start-round")
    for box in range(1, 7):
        tablet.post("siete/place-wager", box=box, amount=20)
    for _ in range(7):
        tablet.post("siete/record-card", card=deck.pop())
    for _ in range(60):
        state = tablet.state()
        if state["phase"] == "settled":
            return
        turn = state["turn"]
        if turn and turn["hand"] == "box":
            box = next(b for b in state["boxes"] if b["box"] == turn["box"])
            if box["status"] == "playing" and rng.random() < 0.5:
                tablet.post("siete/request-draw", box=turn["box"], face_down=False)
                tablet.post("siete/record-card", card=deck.pop())
            else:
                tablet.post("siete/stand", box=turn["box"])
        elif turn and turn["hand"] == "bank":
            if state["bank"]["cards"] and all("card" in c for c in state["bank"]["cards"]):
                tablet.post("siete/record-card", card=deck.pop())
            else:
                tablet.post("siete/reveal-bank")
        else:
            break


def stud_hand(tablet: TimedClient, rng: random.Random) -> None:
    deck = DECK_FRENCH.copy()
    rng.shuffle(deck)
    tablet.post("rounds")
    for _ in range(400):
        state = tablet.state()
        if state["phase"] in ("complete", "voided"):
            return
        if state["card_due"] is not None:
            tablet.post("stud/record-card", card=deck.pop())
        elif state["to_act"] is not None:
            by_kind = {option["action"]: option for option in state["legal_actions"]}
            kind = next(k for k in ("check", "call", "bring_in") if k in by_kind)
            tablet.post(f"stud/{kind.replace('_', '-')}", seat=state["to_act"],
                        amount=by_kind[kind]["amount"])  # fmt: skip
        elif state["next_to_show"] is not None:
            tablet.post("stud/show", seat=state["next_to_show"])
        else:
            tablet.post("stud/award-pots")


def measure(name: str, rounds: int, play: Callable[[TimedClient, random.Random], None],
            tablet: TimedClient) -> None:  # fmt: skip
    rng = random.Random(11)
    start = time.perf_counter()
    for _ in range(rounds):
        play(tablet, rng)
    elapsed = time.perf_counter() - start
    ms = [s * 1000 for s in tablet.samples]
    print(f"{name}: {rounds} rounds, {len(ms)} requests in {elapsed:.1f} s; per request "
          f"median {statistics.median(ms):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, "
          f"max {max(ms):.1f} ms; per round {elapsed / rounds * 1000:.0f} ms")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    setup(require_postgres=True)
    from django.contrib.auth.models import Group, User
    from rest_framework.test import APIClient

    from tables.models import Table
    from tables.services import seating
    from tables.services.floor import table_create, table_set_status
    from tests.reports.custody_floor import OPENING_CHIPS, open_books

    boss, _ = User.objects.get_or_create(username="bench-boss")
    boss.groups.add(Group.objects.get(name="pit_boss"))
    client = APIClient()
    client.force_authenticate(boss)
    suffix = uuid.uuid4().hex[:6]
    siete_settings = {"min_stake": 10, "max_stake": 500, "chip": 5}
    stud_settings = {"small_bet": 20, "rake_percent": "5", "rake_cap": 30}
    siete_table = table_create(
        name=f"bench-sym-{suffix}", game="siete_y_medio", seat_count=6, settings=siete_settings
    )
    stud_table = table_create(
        name=f"bench-stud-{suffix}", game="seven_card_stud", seat_count=8, settings=stud_settings
    )
    dealer, _ = User.objects.get_or_create(username=f"bench-dealer-{suffix}")
    dealer.groups.add(Group.objects.get(name="dealer"))
    for table in (siete_table, stud_table):
        table_set_status(table_id=table.pk, status=Table.Status.OPEN, actor=boss)
        open_books(table.pk, dealer=dealer, pit_boss=boss, chips=OPENING_CHIPS)
    for seat in range(1, 9):
        seating.player_seat(table_id=stud_table.pk, seat=seat, player=f"p{seat}",
                            buy_in=100_000, actor=boss)  # fmt: skip
    measure(
        "Siete y Medio, six boxes", args.rounds, siete_round, TimedClient(client, siete_table.pk)
    )
    measure("Seven-Card Stud, eight players", args.rounds, stud_hand,
            TimedClient(client, stud_table.pk))  # fmt: skip


if __name__ == "__main__":
    main()
