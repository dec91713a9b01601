"""The best five-card poker hand of 5 to 7 cards.

Two entries:

* :func:`best_hand` takes card codes (``"As"``) and returns a :class:`HandValue` with the
  strength, the category name and the five cards used. It validates its input.
* :func:`strength_of` takes cards already parsed with
  :func:`~tables.engine.poker.cards.parse_card` and returns only the strength int. It does
  no validation (5 to 7 distinct parsed cards are the caller's promise) and is the one to
  use in simulations.

Greater strength is a stronger hand, equal strengths tie, and suits never break a tie. The
layout of a strength is described in :mod:`tables.engine.poker.ranking`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tables.engine.errors import InvalidInputError
from tables.engine.poker.cards import RANK_VALUES, SUIT_INDEXES, parse_card, rank_of, suit_of
from tables.engine.poker.ranking import (
    FLUSH,
    STRAIGHT_FLUSH,
    category_index,
    category_name,
    significant_ranks,
    strength_by_rules,
)

__all__ = ["HandValue", "best_hand", "parse_card", "strength_of"]


@dataclass(frozen=True, order=True)
class HandValue:
    """A hand's worth. Compares and hashes by `strength` alone."""

    strength: int
    category: str = field(compare=False)
    cards: tuple[str, ...] = field(compare=False)


def strength_of(cards: Sequence[int]) -> int:
    """The strength of the best five of 5 to 7 distinct parsed cards (no validation)."""
    return strength_by_rules((rank_of(card), suit_of(card)) for card in cards)


def best_hand(cards: Iterable[str]) -> HandValue:
    """The best five-card hand of 5 to 7 distinct card codes."""
    codes = tuple(cards)
    if not 5 <= len(codes) <= 7:
        raise InvalidInputError(
            f"A poker hand is made from 5 to 7 cards, not {len(codes)}.",
            code="wrong_card_count",
        )
    parsed = [parse_card(code) for code in codes]
    if len(set(parsed)) != len(parsed):
        duplicates = sorted({code for code in codes if codes.count(code) > 1})
        raise InvalidInputError(
            f"The same card appears twice: {', '.join(duplicates)}.", code="duplicate_card"
        )
    strength = strength_of(parsed)
    return HandValue(strength, category_name(strength), five_cards_used(codes, strength))


def five_cards_used(codes: Sequence[str], strength: int) -> tuple[str, ...]:
    """The five of `codes` that make `strength`, in order of significance.

    Where a rank could be filled by more than one card, the higher suit (spades, hearts,
    diamonds, clubs) is used, so the odd-chip rule sees the strongest choice.
    """
    pool = sorted(
        codes, key=lambda code: (RANK_VALUES[code[0]], SUIT_INDEXES[code[1]]), reverse=True
    )
    if category_index(strength) in (FLUSH, STRAIGHT_FLUSH):
        suit = max(SUIT_INDEXES, key=lambda s: sum(code[1] == s for code in codes))
        pool = [code for code in pool if code[1] == suit]
    chosen: list[str] = []
    for rank in significant_ranks(strength):
        card = next(c for c in pool if RANK_VALUES[c[0]] == rank and c not in chosen)
        chosen.append(card)
    return tuple(chosen)
