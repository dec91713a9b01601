"""The optimal player's exact return, by the test-side enumeration (independent of the engine).

At every deck state the player compares standing (the bank then plays, as in
`siete_exact_return`) with drawing, and keeps the better. The deck state tells exactly which
cards the player holds, so this is the same best play the engine computes from its holdings.
Several seconds for one deck: the engine's figure is checked against it in a slow test.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from siete_exact_return import (
    FULL_DECK,
    LIMIT,
    Deck,
    _deck,
    _plain,
    _size,
    bank_value,
    draws,
    final,
)


@cache
def optimal_value(deck: Deck, cards: int, total: int, real: bool, ties: str) -> Fraction:
    if total > LIMIT:
        return Fraction(0)
    drawing: Fraction = Fraction(0)
    for count, card, after, makes_real in draws(deck, cards == 0, cards == 1 and total == 1):
        drawing += count * optimal_value(after, cards + 1, total + card, makes_real, ties)
    drawing /= _size(deck)
    if not cards:
        return drawing
    bank_deck = _deck(deck[0], _plain(deck[1]))
    standing: Fraction = bank_value(bank_deck, 0, 0, False, final(cards, total, real), ties)
    return max(standing, drawing)


def optimal_return(ties: str = "push") -> Fraction:
    """The exact expected return of a stake of 1 (stake included) under the best play."""
    value: Fraction = optimal_value(FULL_DECK, 0, 0, False, ties)
    return value
