"""The frozen state of a Siete y Medio table: its settings, its shoe and the current round."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tables.engine.siete.settings import SieteSettings
from tables.engine.siete.settlement import BoxResult

TABLET = "tablet"
SHOE = "shoe"
SOURCES = (TABLET, SHOE)


@dataclass(frozen=True)
class HandCard:
    """A card as it lies on the table; `card` is None while a tablet face-down card is unknown."""

    card: str | None
    face_up: bool
    physical_id: str | None = None
    source: str = TABLET


@dataclass(frozen=True)
class Box:
    number: int
    seat: int
    stake: int
    cards: tuple[HandCard, ...] = ()
    pending_draw: str | None = None  # "face_up" or "face_down" while a requested card is awaited
    turn_over: bool = False
    bust: str | None = None  # "declared", "visible" or "undeclared"
    removed: str | None = None  # "voided" or "sat_out": the stake goes back, the cards are dead
    result: BoxResult | None = None
    recorded_payout: int | None = None


@dataclass(frozen=True)
class Round:
    number: int
    boxes: tuple[Box, ...] = ()  # only boxes with a wager, in box order
    bank: tuple[HandCard, ...] = ()
    betting_closed: bool = False
    first_decision: bool = False
    bank_finished: bool = False
    held: str | None = None  # why the round waits for the pit boss
    held_card: HandCard | None = None
    misdrawn_waiting: tuple[HandCard, ...] = ()
    dead: tuple[HandCard, ...] = ()
    settled: bool = False
    voided: bool = False
    alerts: tuple[dict[str, Any], ...] = ()

    def box(self, number: int) -> Box | None:
        for box in self.boxes:
            if box.number == number:
                return box
        return None


@dataclass(frozen=True)
class Shoe:
    """What left the shoe since its last shuffle, for duplicate detection."""

    drawn: tuple[str, ...] = ()
    physical_ids: frozenset[str] = frozenset()
    burns_due: int = 0
    cut_card_out: bool = False
    shuffles: int = 0


@dataclass(frozen=True)
class SieteState:
    settings: SieteSettings = field(default_factory=SieteSettings)
    shoe: Shoe = field(default_factory=Shoe)
    round: Round | None = None
    rounds_opened: int = 0
