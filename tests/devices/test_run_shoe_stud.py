"""A Seven-Card Stud hand played with every card, burns included, coming from the simulated
shoe: run_shoe on one pseudo-terminal, the shoe on the other, the dealer's tablet on the API."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from shoe_floor_harness import bind_shoe, fast_password_hashing, shoe_at_table

from devices.codec.cards import DeckType
from devices.models import DeviceEvent
from tables.engine.stud.commands import SeatEntry, StartHand
from tables.models import Table, TableEvent
from tables.services.commands import table_command
from tables.services.floor import dealer_assign, table_create, table_set_status
from tables.verification import verify_table
from tests.log_guard import erasable_log

pytestmark = [
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
    pytest.mark.usefixtures("erasable_log"),
]
__all__ = ["erasable_log", "fast_password_hashing"]
PASSIVE = ("bring_in", "check", "call")


@pytest.fixture
def stud_table(dealer_dora: User, pit_boss_paula: User) -> Table:
    table = table_create(
        name="STUD-01", game="seven_card_stud", seat_count=8,
        settings={"small_bet": 10, "big_bet": 20, "ante": 2, "bring_in": 5},
    )  # fmt: skip
    table_set_status(table_id=table.pk, status=Table.Status.OPEN, actor=pit_boss_paula)
    dealer_assign(table_id=table.pk, dealer=dealer_dora, by=pit_boss_paula)
    return table


class Tablet:
    def __init__(self, client: Any, table: Table) -> None:
        self.client = client
        self.table = table

    def send(self, command: str, expect: int = 201, **data: Any) -> dict[str, Any]:
        url = f"/api/tables/{self.table.pk}/stud/{command.replace('_', '-')}"
        response = self.client.post(url, data, format="json")
        assert response.status_code == expect, response.json()
        return dict(response.json())

    def state(self) -> dict[str, Any]:
        return dict(self.client.get(f"/api/tables/{self.table.pk}").json()["state"])


def play_hand(tablet: Tablet, shoe: Any) -> dict[str, Any]:
    """Every card from the shoe; every player checks or calls down; both show."""
    for _ in range(80):
        state = tablet.state()
        if state["phase"] == "dealing":
            shoe.draw()
        elif state["phase"] == "betting":
            legal = {option["action"]: option for option in state["legal_actions"]}
            action = next(kind for kind in PASSIVE if kind in legal)
            tablet.send(action, seat=state["to_act"], amount=legal[action]["amount"])
        elif state["phase"] == "showdown":
            # What the tablet says about a hand the shoe read must agree with the shoe.
            drawn = {entry["card"] for entry in shoe.log}
            others = [c for c in ("2c", "3c", "4c", "5c", "6c", "7c", "8c") if c not in drawn]
            claim = {"seat": state["next_to_show"], "cards": others[:3]}
            assert tablet.send("show", expect=422, **claim)["code"] == "card_mismatch"
            tablet.send("show", seat=state["next_to_show"])
        elif state["phase"] == "awarding":
            tablet.send("award_pots")
        else:
            return state
    raise AssertionError("the hand did not finish")


def test_a_stud_hand_takes_every_card_and_burn_from_the_shoe_and_the_tablet_must_agree(
    tmp_path: Path,
    stud_table: Table,
    dealer_dora: User,
    pit_boss_paula: User,
    pit_boss_pedro: User,
    client_for: Any,
) -> None:
    bind_shoe(stud_table, "SIM-STUD-01", requested_by=pit_boss_paula, approved_by=pit_boss_pedro)
    tablet = Tablet(client_for(dealer_dora), stud_table)
    with shoe_at_table(tmp_path, "SIM-STUD-01", seed=23, deck=DeckType.FRENCH) as shoe:
        assert shoe.settled(), "the shoe's session did not start"
        seats = (SeatEntry(1, "ana", 300), SeatEntry(2, "bruno", 300))
        table_command(table_id=stud_table.pk, command=StartHand(seats), actor=None, source="system")
        shoe.draw(6)
        third = tablet.state()
        assert all(seat["down_count"] == 2 for seat in third["seats"])
        hole_cards = [entry["card"] for entry in shoe.log[:4] if entry["card"] != "cut"]
        assert not any(card in str(third) for card in hole_cards)  # hole cards stay hidden
        final = play_hand(tablet, shoe)
        drawn = [entry["card"] for entry in shoe.log if entry["card"] != "cut"]
    assert final["phase"] == "complete"
    assert len(drawn) == 2 * 7 + 4  # seven cards each and a burn before 4th to 7th street
    rows = TableEvent.objects.filter(
        table=stud_table, type__in=("card.dealt", "card.burned")
    ).order_by("seq")
    assert [row.payload["card"] for row in rows] == drawn
    assert [row.type for row in rows].count("card.burned") == 4
    assert {row.source for row in rows} == {TableEvent.Source.SHOE}
    cards = DeviceEvent.objects.filter(message_type="CARD_DRAWN")
    assert {event.verdict for event in cards} == {DeviceEvent.Verdict.ACCEPTED}
    stacks = sum(seat["stack"] for seat in final["seats"])
    assert stacks == 600  # nothing raked at zero percent, every chip back with a player
    assert verify_table(stud_table).ok
