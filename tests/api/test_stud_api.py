"""A Seven-Card Stud hand played through the dealer's REST API, end to end."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.contrib.auth.models import User

from tables.models import Round, Seat, Table, TableEvent
from tables.verification import verify_table
from tests.api.game_clients import DECK, STUD_SETTINGS, Tablet, open_table, play_to_the_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def stud_table(dealer_dora: User, pit_boss_paula: User) -> Table:
    return open_table("Stud-T", "seven_card_stud", STUD_SETTINGS, dealer_dora, pit_boss_paula)


def tablet_at(client: Any, table: Table) -> Tablet:
    return Tablet(client, table, "stud")


def test_players_sit_play_a_hand_and_keep_their_stacks(
    client_for: Any, dealer_dora: User, stud_table: Table, auditor_alba: User
) -> None:
    tablet = tablet_at(client_for(dealer_dora), stud_table)
    tablet.post("seats/sit", seat=1, player="ana", buy_in=500)
    tablet.post("seats/sit", seat=3, player="bruno", buy_in=300)
    tablet.post("seats/sit", seat=5, player="carla", buy_in=400)
    opened = tablet.post("rounds")
    assert opened["round"] == 1
    deck = DECK.copy()
    random.Random(7).shuffle(deck)
    live = json.dumps(tablet.state())
    final = play_to_the_end(tablet, deck)
    assert final["result"] is not None
    rake = sum(int(pot.get("rake", 0)) for pot in final["result"].get("pots", []))
    stacks = dict(Seat.objects.filter(table=stud_table).values_list("number", "stack"))
    assert stacks[1] + stacks[3] + stacks[5] + rake == 1200
    assert Round.objects.get(table=stud_table).status == Round.Status.SETTLED
    assert verify_table(stud_table).ok
    # Hole cards are never on the live screen before the showdown.
    hand = TableEvent.objects.filter(table=stud_table, type="card.dealt").order_by("seq")
    first_hole = hand.first()
    assert first_hole is not None
    assert first_hole.payload["card"] not in live


def test_chips_bought_during_a_hand_play_from_the_next_one(
    client_for: Any, dealer_dora: User, stud_table: Table
) -> None:
    tablet = tablet_at(client_for(dealer_dora), stud_table)
    tablet.post("seats/sit", seat=1, player="ana", buy_in=500)
    tablet.post("seats/sit", seat=2, player="bruno", buy_in=500)
    tablet.post("rounds")
    tablet.post("seats/chips", seat=2, amount=100)
    seat = Seat.objects.get(table=stud_table, number=2)
    assert (seat.stack, seat.pending_chips) == (500, 100)
    deck = DECK.copy()
    random.Random(3).shuffle(deck)
    final = play_to_the_end(tablet, deck)
    stacks = Seat.objects.filter(table=stud_table)
    assert sum(s.stack for s in stacks) + sum(s.pending_chips for s in stacks) <= 1100
    assert Seat.objects.get(table=stud_table, number=2).pending_chips == 0
    # Each seat starts the next hand with the hand's final stack, and bruno with his 100 more.
    ended = {seat["seat"]: seat["stack"] for seat in final["seats"]}
    assert dict(stacks.filter(number__in=ended).values_list("number", "stack")) == {
        1: ended[1],
        2: ended[2] + 100,
    }
    left = tablet.post("seats/leave", expect=201, seat=2)
    assert left["player"] == "bruno"


@pytest.mark.parametrize(
    ("url", "data", "code"),
    [
        ("seats/sit", {"seat": 9, "player": "x", "buy_in": 100}, "unknown_seat"),
        ("seats/sit", {"seat": 1, "player": "x", "buy_in": 0}, "invalid_input"),
        ("seats/chips", {"seat": 4, "amount": 100}, "seat_empty"),
        ("stud/start-hand", {"seats": []}, "not_found"),
        ("commands", {"type": "start_hand", "data": {}}, "use_round_open"),
        ("rounds", {}, "not_enough_players"),
        ("stud/fold", {"seat": 1}, "hand_over"),
    ],
)
def test_bad_stud_input_is_refused_and_nothing_recorded(
    client_for: Any, dealer_dora: User, stud_table: Table, url: str, data: dict[str, Any], code: str
) -> None:
    tablet = tablet_at(client_for(dealer_dora), stud_table)
    before = TableEvent.objects.filter(table=stud_table).count()
    response = tablet.client.post(f"/api/tables/{stud_table.pk}/{url}", data, format="json")
    assert response.json()["code"] == code, response.json()
    assert 400 <= response.status_code < 500
    assert TableEvent.objects.filter(table=stud_table).count() == before


def test_a_hand_is_voided_only_by_a_second_pit_boss_and_stacks_return(
    client_for: Any, dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User,
    stud_table: Table,
) -> None:  # fmt: skip
    tablet = tablet_at(client_for(dealer_dora), stud_table)
    tablet.post("seats/sit", seat=1, player="ana", buy_in=500)
    tablet.post("seats/sit", seat=2, player="bruno", buy_in=500)
    tablet.post("rounds")
    for card in ("2c", "3d", "9h", "Ts", "4c", "Jd"):
        tablet.send("record_card", card=card)
    direct = tablet.post("commands", expect=409, type="void_hand", data={"reason": "misdeal"})
    assert direct["code"] == "needs_approval"
    asked = client_for(pit_boss_paula).post(
        f"/api/tables/{stud_table.pk}/corrections",
        {"command": {"type": "void_hand", "data": {"reason": "misdeal"}}, "reason": "misdeal"},
        format="json",
    )
    assert asked.status_code == 201, asked.json()
    own = client_for(pit_boss_paula).post(f"/api/corrections/{asked.json()['id']}/approve")
    assert own.json()["code"] == "own_request"
    approved = client_for(pit_boss_pedro).post(f"/api/corrections/{asked.json()['id']}/approve")
    assert approved.status_code == 200, approved.json()
    assert approved.json()["state"]["phase"] == "voided"
    assert Round.objects.get(table=stud_table).status == Round.Status.VOIDED
    stacks = sorted(Seat.objects.filter(table=stud_table).values_list("stack", flat=True))
    assert stacks[-2:] == [500, 500]
