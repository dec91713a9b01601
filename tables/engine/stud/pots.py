"""Main and side pots, and how a pot splits between equal hands."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tables.engine.poker.cards import SUIT_INDEXES
from tables.engine.stud.state import SeatState


@dataclass(frozen=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]
    # Whose chips the pot holds; not part of a pot's identity.
    contributors: tuple[int, ...] = field(default=(), compare=False)

    @property
    def returned(self) -> bool:
        """R12: only its single eligible player's chips (an unmatched ante or bet): returned."""
        return len(self.eligible) == 1 and self.contributors == self.eligible


def form_pots(seats: Sequence[SeatState]) -> tuple[Pot, ...]:
    """A main pot and one side pot per all-in level; folded chips stay where they went in.

    Adjacent pots with the same eligible players are one pot. Chips above the highest level of
    any player still in the hand (a dead hand's) go to the last pot.
    """
    contenders = [s for s in seats if s.in_hand]
    levels = sorted({s.committed for s in contenders if s.committed > 0})
    if not levels:
        total = sum(s.committed for s in seats)
        paying = tuple(s.seat for s in seats if s.committed)
        return (Pot(total, tuple(s.seat for s in contenders), paying),) if total else ()
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        parts = {s.seat: min(s.committed, level) - min(s.committed, previous) for s in seats}
        if level == levels[-1]:
            for s in seats:
                parts[s.seat] += max(0, s.committed - level)
        amount = sum(parts.values())
        paying = tuple(seat for seat, part in parts.items() if part)
        eligible = tuple(s.seat for s in contenders if s.committed >= level)
        if pots and pots[-1].eligible == eligible:
            merged = tuple(sorted(set(pots[-1].contributors) | set(paying)))
            pots[-1] = Pot(pots[-1].amount + amount, eligible, merged)
        else:
            pots.append(Pot(amount, eligible, paying))
        previous = level
    return tuple(pots)


def odd_chip_order(
    winners: Sequence[int], five_cards: Mapping[int, Sequence[str]], rule: str
) -> list[int]:
    """Who receives odd chips first.

    `high_card_by_suit` (TDA 20-B): compare the five-card hands card by card from the most
    significant, by suit (their ranks are equal, the hands being tied); a card both hands share
    has the same suit in both and so never decides. `left_of_dealer`: seat order.
    """
    if rule == "left_of_dealer" or len(winners) == 1:
        return list(winners)

    def suits(seat: int) -> tuple[int, ...]:
        return tuple(SUIT_INDEXES[card[1]] for card in five_cards[seat])

    return sorted(winners, key=suits, reverse=True)


def split(amount: int, chip: int, order: Sequence[int]) -> dict[int, int]:
    """Equal shares in whole chips; the remainder one chip each in `order`."""
    units, odd = divmod(amount // chip, len(order))
    return {seat: (units + (1 if index < odd else 0)) * chip for index, seat in enumerate(order)}
