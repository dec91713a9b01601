"""Rounds of both games played live for the disclosure tests, with every answer kept.

Siete y Medio is fed by a bound shoe (through the shoe's sink, the path the reader daemon
commits with); in Stud half the hole cards come through the shoe's service path
(``source="shoe"``) and half are typed at the tablet, so the server knows every hidden code.
Each client keeps the body of every answer it got; a search looks for a code as a whole word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from rest_framework.test import APIClient

from devices.codec.cards import DeckType, card_byte
from devices.codec.messages import CardDrawn, Hello
from devices.django_sink import DjangoLinkSink
from tables.engine import stud
from tables.models import Table, TableEvent
from tables.services.commands import table_command
from tests.api.game_clients import (
    SIETE_SETTINGS,
    STUD_SETTINGS,
    Tablet,
    open_table,
    play_to_the_end,
)

SHOE_SERIAL = "SIM-DISC-1"


class RecordingClient(APIClient):
    """An API client signed in as one person that keeps every answer's body."""

    def __init__(self, user: User, bodies: list[str]) -> None:
        super().__init__()
        self.force_authenticate(user)
        self.bodies = bodies

    def request(self, *args: Any, **kwargs: Any) -> Any:
        response = super().request(*args, **kwargs)
        self.bodies.append(response.content.decode(errors="replace"))
        return response


def named(codes: Iterable[str], text: str) -> set[str]:
    """The codes that ``text`` names as whole words (a CSRF token's "6E" is not a card)."""
    return {
        code
        for code in codes
        if re.search(rf"(?<![0-9A-Za-z]){re.escape(code)}(?![0-9A-Za-z])", text)
    }


@dataclass
class LiveRound:
    table: Table
    hidden: set[str]
    people: dict[str, User]
    bodies: list[str] = field(default_factory=list)
    clients: dict[str, RecordingClient] = field(default_factory=dict)
    device_id: int | None = None
    tablet: Tablet | None = None


def clients_for(people: dict[str, User], bodies: list[str]) -> dict[str, RecordingClient]:
    return {name: RecordingClient(user, bodies) for name, user in people.items()}


class Shoe:
    def __init__(self) -> None:
        self.sink = DjangoLinkSink(SHOE_SERIAL)
        self.sink.device_hello(Hello(SHOE_SERIAL, "SIM-SHOE", "1.0.0", b"\x01" * 32), 1)
        self.draws = 0

    def draw(self, code: str) -> str:
        self.draws += 1
        card = card_byte(DeckType.SPANISH, code)
        uid = bytes([self.draws])
        return self.sink.commit(1, self.draws, CardDrawn(self.draws, card, 3, 0, uid))


def bound_shoe(pit_boss: RecordingClient, approver: RecordingClient, table: Table) -> int:
    enrolled = pit_boss.post(
        "/api/devices/",
        {"serial": SHOE_SERIAL, "port_url": "loop://", "table_id": table.pk},
        format="json",
    ).json()
    approver.post(f"/api/devices/bindings/{enrolled['binding']['id']}/approve")
    return int(enrolled["id"])


def opened_for_the_shift(
    name: str, game: str, settings: dict[str, Any], people: dict[str, User]
) -> Table:
    """A table with its opener for the shift in play (counted by the pit boss, confirmed by
    the dealer), so the shift's audit covers its rounds."""
    return open_table(name, game, settings, people["dealer"], people["pit_boss"])


def siete_dealt(people: dict[str, User]) -> tuple[LiveRound, Shoe]:
    """Two boxes and the bank, each with a face-down card from the shoe: box 1's turn."""
    table = opened_for_the_shift("SyM-D", "siete_y_medio", SIETE_SETTINGS, people)
    live = LiveRound(table=table, hidden={"6E", "3O", "4C"}, people=people)
    live.clients = clients_for(people, live.bodies)
    live.device_id = bound_shoe(live.clients["pit_boss"], live.clients["pit_boss_2"], table)
    shoe = Shoe()
    live.tablet = tablet = Tablet(live.clients["dealer"], table, "siete")
    tablet.send("start_round")
    tablet.send("place_wager", box=1, amount=20)
    tablet.send("place_wager", box=2, amount=10)
    for code in ("6E", "3O", "4C"):  # box 1, box 2, the bank: all face down
        assert shoe.draw(code) == "accepted"
    return live, shoe


def siete_live_round(people: dict[str, User]) -> tuple[LiveRound, Shoe]:
    """As dealt, then box 1's face-up draw and both boxes standing: the bank's turn, with
    three cards hidden."""
    live, shoe = siete_dealt(people)
    tablet = live.tablet
    assert tablet is not None
    tablet.send("request_draw", box=1, face_down=False)
    assert shoe.draw("12O") == "accepted"  # face up: everyone sees it
    tablet.send("stand", box=1)
    tablet.send("stand", box=2)
    return live, shoe


def siete_finish(live: LiveRound, shoe: Shoe) -> None:
    tablet = live.tablet
    assert tablet is not None
    tablet.send("reveal_bank")
    while tablet.state()["phase"] == "bank":
        assert shoe.draw("1E") == "accepted"
    state = tablet.state()
    for box in (1, 2):
        if state["phase"] == "settling":
            tablet.send("reveal", box=box)
            state = tablet.state()
    for result in tablet.state()["results"]:
        tablet.send("record_payout", box=result["box"], amount=result["net"])
    closed = live.clients["dealer"].post(f"/api/tables/{live.table.pk}/rounds/close")
    assert closed.status_code == 200, closed.content


STUD_HOLE = ("Ah", "Kd", "2c", "9s")  # seat 1's and seat 3's two down cards on 3rd street


def stud_live_hand(people: dict[str, User]) -> LiveRound:
    """Two players on 3rd street: two down cards read by the shoe, two entered at the tablet,
    then the two up cards."""
    table = opened_for_the_shift("Stud-D", "seven_card_stud", STUD_SETTINGS, people)
    live = LiveRound(table=table, hidden=set(STUD_HOLE), people=people)
    live.clients = clients_for(people, live.bodies)
    live.tablet = tablet = Tablet(live.clients["dealer"], table, "stud")
    tablet.post("seats/sit", seat=1, player="ana", buy_in=500)
    tablet.post("seats/sit", seat=3, player="bruno", buy_in=500)
    tablet.post("rounds")
    for code in STUD_HOLE[:2]:  # read by the shoe's service path
        table_command(
            table_id=table.pk,
            command=stud.command_from_json("record_card", {"card": code, "source": "shoe"}),
            actor=None,
            source=TableEvent.Source.SHOE,
        )
    for code in STUD_HOLE[2:]:  # entered at the tablet: the audit's manual entries list them
        tablet.send("record_card", card=code)
    for code in ("7h", "8d"):  # the two up cards
        tablet.send("record_card", card=code)
    return live


STUD_REST = ["3h", "4h", "5d", "6d", "Th", "Js", "Qc", "Qd", "3s", "4s", "5c", "6c"]


def stud_finish(live: LiveRound) -> None:
    assert live.tablet is not None
    play_to_the_end(live.tablet, list(reversed(STUD_REST)))
    closed = live.clients["dealer"].post(f"/api/tables/{live.table.pk}/rounds/close")
    assert closed.status_code == 200, closed.content
