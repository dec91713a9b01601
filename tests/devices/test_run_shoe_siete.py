"""A Siete y Medio round played with every card coming from the simulated shoe, end to end:
the simulator on one pseudo-terminal, run_shoe on the other, the dealer's tablet on the API."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from shoe_floor_harness import bind_shoe, fast_password_hashing, shoe_at_table

from devices.models import DeviceEvent, MisreadHold
from tables.models import Alert, Round, Table, TableEvent
from tables.services.floor import dealer_assign, table_create, table_set_status
from tables.verification import verify_table
from tests.log_guard import erasable_log

pytestmark = [
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
    pytest.mark.usefixtures("erasable_log"),
]
__all__ = ["erasable_log", "fast_password_hashing"]


@pytest.fixture
def siete_table(dealer_dora: User, pit_boss_paula: User) -> Table:
    table = table_create(
        name="SYM-01", game="siete_y_medio", seat_count=6,
        settings={"min_stake": 10, "max_stake": 200, "chip": 5},
    )  # fmt: skip
    table_set_status(table_id=table.pk, status=Table.Status.OPEN, actor=pit_boss_paula)
    dealer_assign(table_id=table.pk, dealer=dealer_dora, by=pit_boss_paula)
    return table


class Tablet:
    def __init__(self, client: Any, table: Table) -> None:
        self.client = client
        self.table = table

    def send(self, command: str, expect: int = 201, **data: Any) -> dict[str, Any]:
        url = f"/api/tables/{self.table.pk}/siete/{command.replace('_', '-')}"
        response = self.client.post(url, data, format="json")
        assert response.status_code == expect, response.json()
        return dict(response.json())

    def state(self) -> dict[str, Any]:
        return dict(self.client.get(f"/api/tables/{self.table.pk}").json()["state"])


def play_turns(tablet: Tablet, shoe: Any) -> dict[str, Any]:
    """Box 1 draws one card face up, every box then stands; the bank draws from the shoe."""
    for _ in range(20):
        state = tablet.state()
        if state["phase"] == "players":
            box = next(b for b in state["boxes"] if b["box"] == state["turn"]["box"])
            if box["pending_draw"]:
                shoe.draw()
            elif box["box"] == 1 and len(box["cards"]) == 1:
                tablet.send("request_draw", box=1, face_down=False)
            else:
                tablet.send("stand", box=box["box"])
        elif state["phase"] == "bank":
            if any(card.get("face_down") for card in state["bank"]["cards"]):
                tablet.send("reveal_bank")
            else:
                shoe.draw()
        else:
            return state
    raise AssertionError("the round did not finish")


def test_a_siete_round_takes_every_card_from_the_shoe_and_the_tablet_must_agree_with_it(
    tmp_path: Path,
    siete_table: Table,
    dealer_dora: User,
    pit_boss_paula: User,
    pit_boss_pedro: User,
    client_for: Any,
) -> None:
    bind_shoe(siete_table, "SIM-SYM-01", requested_by=pit_boss_paula, approved_by=pit_boss_pedro)
    tablet = Tablet(client_for(dealer_dora), siete_table)
    with shoe_at_table(tmp_path, "SIM-SYM-01", seed=11) as shoe:
        assert shoe.settled(), "the shoe's session did not start"
        tablet.send("start_round")
        tablet.send("place_wager", box=1, amount=20)
        tablet.send("place_wager", box=2, amount=10)
        initial = shoe.draw(3)  # box 1, box 2, then the bank: all face down
        state = tablet.state()
        assert state["turn"] == {"hand": "box", "box": 1}
        shown = [card for box in state["boxes"] for card in box["cards"]]
        assert shown == [{"face_down": True}, {"face_down": True}]
        assert not any(code in str(state) for code in initial)
        # A card the shoe read is turned up as read: an entry is refused alike, right or
        # wrong, so a guess learns nothing of the face-down card.
        wrong = next(code for code in ("1O", "2O", "3O", "4O") if code not in initial)
        refused = tablet.send("reveal", expect=409, box=1, card=wrong)
        assert refused["code"] == "card_already_read"
        assert tablet.send("reveal", expect=409, box=1, card=initial[0]) == refused
        tablet.send("reveal", box=1)
        state = play_turns(tablet, shoe)
        drawn = [entry["card"] for entry in shoe.log if entry["card"] != "cut"]
    assert state["phase"] == "settled"
    for result in state["results"]:
        tablet.send("record_payout", box=result["box"], amount=result["net"])
    assert tablet.client.post(f"/api/tables/{siete_table.pk}/rounds/close").status_code == 200

    dealt = TableEvent.objects.filter(table=siete_table, type="card.dealt").order_by("seq")
    assert [row.payload["card"] for row in dealt] == drawn
    assert {row.source for row in dealt} == {TableEvent.Source.SHOE}
    cards = DeviceEvent.objects.filter(message_type="CARD_DRAWN").order_by("id")
    assert [event.card for event in cards] == drawn
    assert {event.verdict for event in cards} == {DeviceEvent.Verdict.ACCEPTED}
    assert [event.table_event_id for event in cards] == [row.pk for row in dealt]
    assert Round.objects.get(table=siete_table).status == Round.Status.CLOSED
    assert verify_table(siete_table).ok


def test_a_misread_holds_the_deal_until_the_dealer_enters_the_card_and_a_pit_boss_approves(
    tmp_path: Path,
    siete_table: Table,
    dealer_dora: User,
    pit_boss_paula: User,
    pit_boss_pedro: User,
    client_for: Any,
) -> None:
    bind_shoe(siete_table, "SIM-SYM-01", requested_by=pit_boss_paula, approved_by=pit_boss_pedro)
    tablet = Tablet(client_for(dealer_dora), siete_table)
    with shoe_at_table(tmp_path, "SIM-SYM-01", seed=12) as shoe:
        assert shoe.settled(), "the shoe's session did not start"
        tablet.send("start_round")
        tablet.send("place_wager", box=1, amount=20)
        tablet.send("place_wager", box=2, amount=10)
        shoe.draw()  # box 1
        assert shoe.perform("misread")["card"] == "misread"  # box 2's card, unread
        bank_card = shoe.draw()[0]  # waits behind the unread card
        state = tablet.state()
        assert [len(box["cards"]) for box in state["boxes"]] == [1, 0]
        hold = MisreadHold.objects.get()
        pit = client_for(pit_boss_paula)
        entered = next(
            c for c in ("1C", "2C", "3C", "4C") if c not in (shoe.log[0]["card"], bank_card)
        )
        assert pit.post(f"/api/devices/holds/{hold.pk}/approve").status_code == 409
        entry = tablet.client.post(f"/api/devices/holds/{hold.pk}/entry", {"card": entered})
        assert entry.status_code == 200
        assert pit.post(f"/api/devices/holds/{hold.pk}/approve").status_code == 200
        state = tablet.state()
    assert state["turn"] == {"hand": "box", "box": 1}
    dealt = TableEvent.objects.filter(table=siete_table, type="card.dealt").order_by("seq")
    assert [(row.payload["card"], row.source) for row in dealt] == [
        (shoe.log[0]["card"], "shoe"), (entered, "tablet"), (bank_card, "shoe")
    ]  # fmt: skip
    assert Alert.objects.filter(table=siete_table, code="shoe_misread").exists()
    assert verify_table(siete_table).ok
