"""A small live floor for the pit boss's, the cashier's and the auditor's screens."""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import Any

from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.utils import timezone

from reports.demo.players import TableDriver, play_siete_round
from tables.engine import siete
from tables.models import Table
from tables.services import custody
from tables.services.floor import dealer_assign, table_create
from tests.reports.custody_floor import OPENING_CHIPS

SIETE_SETTINGS = {"min_stake": 10, "max_stake": 500, "chip": 5}


@dataclass
class LiveFloor:
    table: Table
    stud: Table
    dealer: User
    pit_boss: User
    other_pit_boss: User
    cashier: User

    def refresh(self) -> Table:
        self.table.refresh_from_db()
        return self.table

    def driver(self) -> TableDriver:
        return TableDriver(self.table.pk, self.dealer, timezone.now())


def live_floor(
    dealer: User, pit_boss: User, other_pit_boss: User, cashier: User, *, opened: bool = True
) -> LiveFloor:
    table = table_create(
        name="SyM-1", game=Table.Game.SIETE_Y_MEDIO, seat_count=6, settings=SIETE_SETTINGS
    )
    stud = table_create(
        name="Stud-1",
        game=Table.Game.SEVEN_CARD_STUD,
        seat_count=8,
        settings={"small_bet": 10, "big_bet": 20, "ante": 1, "bring_in": 3},
    )
    dealer_assign(table_id=table.pk, dealer=dealer, by=pit_boss)
    if opened:
        custody.custody_open(table_id=table.pk, pit_boss=pit_boss, chips=OPENING_CHIPS)
        custody.count_confirm(table_id=table.pk, dealer=dealer, closing=False)
    table.refresh_from_db()
    return LiveFloor(table, stud, dealer, pit_boss, other_pit_boss, cashier)


def play_rounds(floor: LiveFloor, count: int, seed: int = 3) -> int:
    """Finished rounds at the Siete table; returns the house's net over them."""
    driver, rng = floor.driver(), Random(seed)
    return sum(play_siete_round(driver, rng, chip=5, min_stake=10) for _ in range(count))


def start_a_round_with_a_face_down_card(floor: LiveFloor) -> TableDriver:
    """A round in play: one box dealt, its first card face down (the shoe read it: 7 of
    golds), the bank's card dealt face down too."""
    driver = floor.driver()
    driver.open_round()
    driver.do(siete.PlaceWager(1, 20))
    driver.do(siete.RecordCard("7O", source="shoe"), "shoe")
    driver.do(siete.RecordCard("5C", source="shoe"), "shoe")
    return driver


async def heard_until_quiet(socket: WebsocketCommunicator) -> list[dict[str, Any]]:
    """Every frame a socket hears until half a second passes without one."""
    heard = []
    while not await socket.receive_nothing(timeout=0.5):
        heard.append(await socket.receive_json_from(timeout=5))
    return heard
