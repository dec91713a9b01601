"""The exact spread of one stake, by the test-side enumeration (independent of the engine).

Walks the same deck states as `siete_exact_return` and `siete_exact_optimal`, but carries the
probability of every amount a stake of 1 can return (0, 1, or 1 + a paytable line), so the
variance comes from the whole distribution rather than from a second moment kept alongside the
mean as the engine does. The optimal player draws only where drawing returns strictly more.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from siete_exact_optimal import optimal_value
from siete_exact_return import (
    BANK_STANDS,
    FULL_DECK,
    LIMIT,
    Deck,
    Final,
    _deck,
    _plain,
    _size,
    draws,
    final,
    returned,
)

Distribution = tuple[tuple[Fraction, Fraction], ...]  # (returned amount, probability)


def _mix(parts: list[tuple[int, Distribution]], size: int) -> Distribution:
    found: dict[Fraction, Fraction] = {}
    for count, distribution in parts:
        for amount, chance in distribution:
            found[amount] = found.get(amount, Fraction(0)) + chance * count / size
    return tuple(sorted(found.items()))


@cache
def bank_distribution(
    deck: Deck, cards: int, total: int, real: bool, player: Final, ties: str
) -> Distribution:
    if cards and total >= BANK_STANDS:
        return ((returned(player, final(cards, total, real), ties), Fraction(1)),)
    parts = [
        (count, bank_distribution(after, cards + 1, total + card, makes_real, player, ties))
        for count, card, after, makes_real in draws(deck, cards == 0, cards == 1 and total == 1)
    ]
    return _mix(parts, _size(deck))


def _standing(deck: Deck, cards: int, total: int, real: bool, ties: str) -> Distribution:
    bank_deck = _deck(deck[0], _plain(deck[1]))
    return bank_distribution(bank_deck, 0, 0, False, final(cards, total, real), ties)


@cache
def player_distribution(
    deck: Deck, cards: int, total: int, real: bool, stand: int | None, ties: str
) -> Distribution:
    """`stand` None: the optimal player (draws where `optimal_value` beats standing)."""
    if total > LIMIT:
        return ((Fraction(0), Fraction(1)),)
    if cards and _stands(deck, cards, total, real, stand, ties):
        return _standing(deck, cards, total, real, ties)
    parts = [
        (count, player_distribution(after, cards + 1, total + card, makes_real, stand, ties))
        for count, card, after, makes_real in draws(deck, cards == 0, cards == 1 and total == 1)
    ]
    return _mix(parts, _size(deck))


def _stands(deck: Deck, cards: int, total: int, real: bool, stand: int | None, ties: str) -> bool:
    if stand is not None:
        return total >= stand
    standing = _standing(deck, cards, total, real, ties)
    best: Fraction = optimal_value(deck, cards, total, real, ties)
    return best == sum((a * p for a, p in standing), Fraction(0))


def return_distribution(stand_halves: int | None = None, ties: str = "push") -> Distribution:
    return player_distribution(FULL_DECK, 0, 0, False, stand_halves, ties)


def exact_variance(stand_halves: int | None = None, ties: str = "push") -> Fraction:
    """The variance of what a stake of 1 returns, from its whole distribution."""
    distribution = return_distribution(stand_halves, ties)
    mean = sum((amount * chance for amount, chance in distribution), Fraction(0))
    return sum(((amount - mean) ** 2 * chance for amount, chance in distribution), Fraction(0))
