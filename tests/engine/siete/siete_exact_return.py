"""The exact return to player of Siete y Medio, by full enumeration, independent of the engine.

One box against the bank, one 40-card deck without replacement, the player drawing while
below `stand_on` and the bank while below 5, settled by Real > Siete y Medio > Puntaje with
ties pushed (or taken by the bank). The result is an exact Fraction: what a stake of 1
returns on average, the stake included.

The deck is a state of counts: ranks 1-6 by rank only (their suits never matter) and, per
suit, whether its 7 is left and how many of its figures are. Suits are interchangeable, so
the per-suit entries are kept sorted; the suit of a hand's single first figure is marked,
because a 7 of that suit drawn next makes a Real. Dealing the player's cards before the
bank's first card changes no probability (the deck order is exchangeable).

Run as a script for the figures: ``python tests/engine/siete/siete_exact_return.py 5``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from fractions import Fraction
from functools import cache

LIMIT = 15  # 7½ in half-points
BANK_STANDS = 10  # 5 in half-points

SuitEntry = tuple[int, int, int]  # (its 7 left 0/1, its figures left 0-3, marked 0/1)
Deck = tuple[tuple[int, ...], tuple[SuitEntry, ...]]
Final = tuple[str, int]

FULL_DECK: Deck = ((4, 4, 4, 4, 4, 4), ((1, 3, 0),) * 4)
PAY = {"real": Fraction(2), "siete_y_medio": Fraction(3, 2), "puntaje": Fraction(1)}
ORDER = {"puntaje": 1, "siete_y_medio": 2, "real": 3}


def _deck(low: tuple[int, ...], suits: list[SuitEntry]) -> Deck:
    return low, tuple(sorted(suits))


def _plain(suits: list[SuitEntry] | tuple[SuitEntry, ...]) -> list[SuitEntry]:
    return [(seven, figures, 0) for seven, figures, _ in suits]


def draws(
    deck: Deck, empty_hand: bool, single_figure: bool
) -> Iterator[tuple[int, int, Deck, bool]]:
    """Each distinct next card: how many such cards, value in halves, deck after, makes a Real."""
    low, suits = deck
    for rank in range(1, 7):
        count = low[rank - 1]
        if count:
            after = (*low[: rank - 1], count - 1, *low[rank:])
            yield count, 2 * rank, _deck(after, _plain(suits)), False
    for index, (seven, figures, marked) in enumerate(suits):
        others = _plain(suits[:index] + suits[index + 1 :])
        if seven:
            yield 1, 14, _deck(low, [*others, (0, figures, 0)]), single_figure and marked == 1
        if figures:
            mark = 1 if empty_hand else 0
            yield figures, 1, _deck(low, [*others, (seven, figures - 1, mark)]), False


def _size(deck: Deck) -> int:
    low, suits = deck
    return sum(low) + sum(seven + figures for seven, figures, _ in suits)


def final(cards: int, total: int, real: bool) -> Final:
    if total > LIMIT:
        return "bust", total
    if cards == 2 and total == LIMIT:
        return ("real" if real else "siete_y_medio"), total
    return "puntaje", total


def returned(player: Final, bank: Final, ties: str) -> Fraction:
    """What a stake of 1 returns, the stake included, for a player who is not bust."""
    if bank[0] == "bust":
        return 1 + PAY[player[0]]
    player_key, bank_key = (ORDER[player[0]], player[1]), (ORDER[bank[0]], bank[1])
    if player_key > bank_key:
        return 1 + PAY[player[0]]
    if player_key == bank_key and ties == "push":
        return Fraction(1)
    return Fraction(0)


@cache
def bank_value(
    deck: Deck, cards: int, total: int, real: bool, player: Final, ties: str
) -> Fraction:
    if cards and total >= BANK_STANDS:
        return returned(player, final(cards, total, real), ties)
    value = Fraction(0)
    for count, card, after, makes_real in draws(deck, cards == 0, cards == 1 and total == 1):
        value += count * bank_value(after, cards + 1, total + card, makes_real, player, ties)
    return value / _size(deck)


@cache
def player_value(deck: Deck, cards: int, total: int, real: bool, stand: int, ties: str) -> Fraction:
    if total > LIMIT:
        return Fraction(0)
    if cards and total >= stand:
        return bank_value(
            _deck(deck[0], _plain(deck[1])), 0, 0, False, final(cards, total, real), ties
        )
    value = Fraction(0)
    for count, card, after, makes_real in draws(deck, cards == 0, cards == 1 and total == 1):
        value += count * player_value(after, cards + 1, total + card, makes_real, stand, ties)
    return value / _size(deck)


@cache
def _hands_from(
    deck: Deck, cards: int, total: int, real: bool, stand: int
) -> tuple[tuple[Final, Fraction], ...]:
    if total > LIMIT or (cards and total >= stand):
        return ((final(cards, total, real), Fraction(1)),)
    found: dict[Final, Fraction] = {}
    size = _size(deck)
    for count, card, after, makes_real in draws(deck, cards == 0, cards == 1 and total == 1):
        for hand, chance in _hands_from(after, cards + 1, total + card, makes_real, stand):
            found[hand] = found.get(hand, Fraction(0)) + chance * count / size
    return tuple(found.items())


def player_hands(stand_on: Fraction) -> dict[Final, Fraction]:
    """The probability of each final player hand, by the same enumeration of draws."""
    return dict(_hands_from(FULL_DECK, 0, 0, False, int(stand_on * 2)))


def exact_return(stand_on: Fraction = Fraction(5), ties: str = "push") -> Fraction:
    """The exact expected return of a stake of 1 (stake included) for one box."""
    return player_value(FULL_DECK, 0, 0, False, int(stand_on * 2), ties)


if __name__ == "__main__":
    stand_on = Fraction(sys.argv[1]) if len(sys.argv) > 1 else Fraction(5)
    value = exact_return(stand_on)
    print(f"stand on {stand_on}: return {value} = {float(value):.8f}")
