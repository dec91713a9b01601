"""Play whole rounds through the table services, with cards as the shoe sends them.

Every command goes through ``table_command`` (lock, decide, append, project), so a simulated
round is recorded exactly as a live one: the shoe's cards come from a freshly shuffled deck
with source ``shoe``, and the dealer pays what the engine computed.
"""

from __future__ import annotations

from datetime import datetime
from random import Random
from typing import Any

from django.contrib.auth.models import User

from tables.engine.poker.cards import ALL_CODES
from tables.engine.siete import commands as siete
from tables.engine.siete.cards import DECK, SIETE_Y_MEDIO_HALVES, VALUE_HALVES
from tables.engine.siete.rules import BANK, phase
from tables.engine.stud import commands as stud
from tables.engine.stud.betting import options
from tables.engine.stud.showdown import next_to_show
from tables.engine.stud.state import AWARDING, BETTING, DEALING, SHOWDOWN
from tables.models import TableEvent
from tables.services.commands import table_command
from tables.services.floor import round_open

SHOE = TableEvent.Source.SHOE
TABLET = TableEvent.Source.TABLET
MAX_STUD_COMMANDS = 400


class TableDriver:
    """Sends one table's commands as one dealer, at a given moment, and keeps the state."""

    def __init__(self, table_id: int, dealer: User, occurred_at: datetime) -> None:
        self.table_id = table_id
        self.dealer = dealer
        self.occurred_at = occurred_at
        self.state: Any = None

    def do(self, command: Any, source: str = TABLET) -> None:
        outcome = table_command(
            table_id=self.table_id,
            command=command,
            actor=self.dealer,
            source=source,
            occurred_at=self.occurred_at,
        )
        self.state = outcome.state

    def open_round(self) -> None:
        self.state = round_open(table_id=self.table_id, actor=self.dealer).state


def play_siete_round(driver: Any, rng: Random, *, chip: int, min_stake: int) -> int:
    """One round of 1 to 6 boxes (``driver``: a TableDriver, or any object with ``do``,
    ``open_round`` and ``state``), each standing on a total the player picks; returns the
    house's net on the round (stakes lost less net wins paid)."""
    driver.open_round()
    deck = rng.sample(DECK, len(DECK))
    boxes = rng.randint(1, 6)
    for box in range(1, boxes + 1):
        driver.do(siete.PlaceWager(box, min_stake + chip * rng.randint(0, 18)))
    for _ in range(boxes + 1):
        driver.do(siete.RecordCard(deck.pop(), source="shoe"), SHOE)
    for box in range(1, boxes + 1):
        _play_box(driver, deck, box, stand_halves=rng.choice((8, 9, 10, 11)))
    if phase(driver.state.round) == BANK:
        driver.do(siete.RevealBank())
        while phase(driver.state.round) == BANK:
            driver.do(siete.RecordCard(deck.pop(), source="shoe"), SHOE)
    round_ = driver.state.round
    assert round_ is not None
    assert round_.settled
    house_net = 0
    for box in round_.boxes:
        net = box.result.net if box.result is not None else 0
        driver.do(siete.RecordPayout(box.number, net))
        house_net -= net
    return house_net


def _play_box(driver: Any, deck: list[str], number: int, stand_halves: int) -> None:
    def box() -> Any:
        return driver.state.round.box(number)

    def total() -> int:
        return sum(VALUE_HALVES[card.card] for card in box().cards)

    while not box().turn_over and total() < stand_halves:
        driver.do(siete.RequestDraw(number))
        driver.do(siete.RecordCard(deck.pop(), source="shoe"), SHOE)
    if box().turn_over:
        return
    driver.do(siete.DeclareBust(number) if total() > SIETE_Y_MEDIO_HALVES else siete.Stand(number))


def play_stud_hand(driver: Any, rng: Random, stacks: dict[int, int]) -> dict[int, int]:
    """One hand with the seats' ``stacks``, players calling or checking mostly, raising now
    and then; returns the stacks after the pots are awarded."""
    entries = tuple(stud.SeatEntry(seat, f"p{seat}", stack) for seat, stack in stacks.items())
    # The simulation deals from its own stacks: a hand the service itself starts.
    driver.do(stud.StartHand(entries), TableEvent.Source.SYSTEM)
    deck = rng.sample(ALL_CODES, len(ALL_CODES))
    for _ in range(MAX_STUD_COMMANDS):
        command = _next_stud_command(driver.state, deck, rng)
        if command is None:
            break
        driver.do(command, SHOE if isinstance(command, stud.RecordCard) else TABLET)
    return {seat.seat: seat.stack for seat in driver.state.seats}


def _next_stud_command(state: Any, deck: list[str], rng: Random) -> Any:
    if state.phase == DEALING:
        return stud.RecordCard(deck.pop(), source="shoe")
    if state.phase == BETTING and state.betting is not None and state.betting.to_act is not None:
        seat = state.betting.to_act
        legal = options(state, seat)
        weights = {"fold": 1, "check": 6, "call": 6, "bring_in": 4, "complete": 1}
        choice = rng.choices(legal, [weights.get(option.kind, 1) for option in legal])[0]
        return stud.Action(choice.kind, seat, choice.to)
    if state.phase == SHOWDOWN:
        seat = next_to_show(state)
        assert seat is not None
        return stud.Show(seat)
    if state.phase == AWARDING:
        return stud.AwardPots()
    return None
