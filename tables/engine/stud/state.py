"""The state of one Stud hand: frozen values, changed only by `evolve`."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tables.engine.frozen import changed
from tables.engine.stud.settings import StudSettings

IDLE, DEALING, BETTING, SHOWDOWN, AWARDING, COMPLETE, VOIDED = (
    "idle",
    "dealing",
    "betting",
    "showdown",
    "awarding",
    "complete",
    "voided",
)
FINISHED_PHASES = (IDLE, COMPLETE, VOIDED)
ACTIVE, FOLDED, KILLED = "active", "folded", "killed"
UP, DOWN = "up", "down"
COMMUNITY = 0  # the "seat" of a community card in the deal queue


@dataclass(frozen=True)
class SeatState:
    seat: int
    player_id: str
    start_stack: int
    stack: int
    committed: int = 0
    street_bet: int = 0
    status: str = ACTIVE
    mucked: bool = False
    shown: bool = False
    down: tuple[str | None, ...] = ()
    up: tuple[str, ...] = ()

    @property
    def in_hand(self) -> bool:
        return self.status == ACTIVE

    @property
    def all_in(self) -> bool:
        return self.status == ACTIVE and self.stack == 0

    @property
    def can_bet(self) -> bool:
        return self.status == ACTIVE and self.stack > 0

    @property
    def live(self) -> bool:
        """A hand that can still win: in the hand and not mucked."""
        return self.in_hand and not self.mucked


@dataclass(frozen=True)
class DueCard:
    seat: int  # COMMUNITY for the community card
    face: str


@dataclass(frozen=True)
class Betting:
    """One street's betting round. Amounts are street totals."""

    street: int
    size: int
    first_actor: int
    to_act: int | None
    pending: tuple[int, ...]
    may_raise: tuple[int, ...]
    level: int = 0
    full_level: int = 0
    count: int = 0
    capped_multiway: bool = False
    big_option: bool = False
    bring_in_seat: int | None = None
    bring_in_due: bool = False
    bring_in_may_fold: bool = False
    last_aggressor: int | None = None
    held: tuple[HeldAction, ...] = ()

    def held_for(self, seat: int) -> HeldAction | None:
        return next((h for h in self.held if h.seat == seat), None)


@dataclass(frozen=True)
class HeldAction:
    """An action declared out of turn: it stands if nobody bets or raises before the turn comes."""

    seat: int
    kind: str
    to: int
    level: int
    count: int


@dataclass(frozen=True)
class StreetRecord:
    street: int
    first_actor: int | None
    last_aggressor: int | None


@dataclass(frozen=True)
class StudState:
    settings: StudSettings
    phase: str = IDLE
    street: int = 0
    seats: tuple[SeatState, ...] = ()
    sitting_out: tuple[int, ...] = ()
    deal_queue: tuple[DueCard, ...] = ()
    burn_open: bool = False
    drawn: int = 0
    known_cards: frozenset[str] = frozenset()
    burns: tuple[str | None, ...] = ()
    dead_cards: tuple[str | None, ...] = ()
    community: tuple[str, ...] = ()
    fourth_dealt: bool = False
    betting: Betting | None = None
    streets: tuple[StreetRecord, ...] = ()
    showdown_order: tuple[int, ...] = ()
    must_show: bool = False
    # Seats a caller asked to see (TDA 18-B): they may no longer muck.
    show_requested: tuple[int, ...] = ()
    # Mucked hands the pit boss showed: seen by the players, never changing the award.
    mucked_shown: tuple[tuple[int, tuple[str, ...]], ...] = ()
    result: dict[str, Any] | None = None
    void_reason: str | None = None
    actions_in_turn: int = 0
    chip_actions: int = 0
    exposed_on_deal: int = 0
    premature_returned: bool = False
    held_card: str | None = None
    held_physical_id: str | None = None

    @property
    def substantial_action(self) -> bool:
        """TDA 36: two actions in turn with chips in one of them, or three; not the bring-in."""
        return self.actions_in_turn >= 3 or (self.actions_in_turn >= 2 and self.chip_actions >= 1)

    def seat(self, number: int) -> SeatState:
        for seat in self.seats:
            if seat.seat == number:
                return seat
        raise KeyError(number)

    def has_seat(self, number: int) -> bool:
        return any(seat.seat == number for seat in self.seats)

    def with_seat(self, updated: SeatState) -> StudState:
        seats = tuple(updated if s.seat == updated.seat else s for s in self.seats)
        return changed(self, seats=seats)

    def in_hand(self) -> tuple[SeatState, ...]:
        return tuple(s for s in self.seats if s.in_hand)

    def can_bet(self) -> tuple[SeatState, ...]:
        return tuple(s for s in self.seats if s.can_bet)

    def clockwise_from(self, number: int) -> Iterator[SeatState]:
        """Every seat in clockwise order starting at `number` (included)."""
        order = [s.seat for s in self.seats]
        start = order.index(number)
        for offset in range(len(order)):
            yield self.seats[(start + offset) % len(order)]

    def record_for(self, street: int) -> StreetRecord | None:
        return next((r for r in self.streets if r.street == street), None)
