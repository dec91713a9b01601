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
from functools import cache

from tables.engine.errors import InvalidInputError
from tables.engine.poker import hand_tables
from tables.engine.poker.cards import (
    ALL_CODES,
    CARD_INTS,
    FLUSH_BITS,
    RANK_CHARS,
    RANK_KEY_SHIFT,
    parse_card,
)
from tables.engine.poker.ranking import (
    CATEGORIES,
    CATEGORY_SHIFT,
    FLUSH,
    STRAIGHT_FLUSH,
    significant_ranks,
)
from tables.engine.poker.table_codec import decode_uints

__all__ = ["HandValue", "best_hand", "parse_card", "strength_of"]


@dataclass(frozen=True, order=True, repr=False)
class HandValue:
    """A hand's worth. Compares and hashes by `strength` alone.

    `hand` holds the 5 to 7 cards it was made from. `cards`, the five of them that make it, is
    worked out when asked for: ranking a showdown compares strengths and never needs it.
    """

    strength: int
    category: str = field(compare=False)
    hand: tuple[str, ...] = field(compare=False)

    @property
    def cards(self) -> tuple[str, ...]:
        """The five cards used, in order of significance (see :func:`five_cards_used`)."""
        return five_cards_used(self.hand, self.strength)

    def __repr__(self) -> str:
        return f"HandValue({self.strength}, {self.category!r}, cards={self.cards!r})"


_UNSUITED: dict[int, int] = dict(
    zip(
        decode_uints(hand_tables.UNSUITED_KEYS).tolist(),
        decode_uints(hand_tables.UNSUITED_STRENGTHS).tolist(),
        strict=True,
    )
)
_FLUSH: tuple[int, ...] = tuple(decode_uints(hand_tables.FLUSH_STRENGTHS).tolist())
_RANK_BIT: dict[int, int] = {
    card: 1 << RANK_CHARS.index(code[0]) for code, card in CARD_INTS.items()
}

# From a suit's flush bit (bit 5 of its field) down to the field's low bit, which only that
# suit's cards have set.
_FLUSH_BIT_TO_SUIT_BIT = 5


def strength_of(cards: Sequence[int]) -> int:
    """The strength of the best five of 5 to 7 distinct parsed cards (no validation).

    One sum gives both the rank multiset and the suit counts; without a flush the answer is one
    dictionary lookup. With a flush, no quads or full house can exist among seven cards, so the
    flush suit's ranks alone decide.
    """
    total = sum(cards)
    flush = total & FLUSH_BITS
    if not flush:
        return _UNSUITED[total >> RANK_KEY_SHIFT]
    suit_bit = flush >> _FLUSH_BIT_TO_SUIT_BIT
    ranks = 0
    for card in cards:
        if card & suit_bit:
            ranks |= _RANK_BIT[card]
    return _FLUSH[ranks]


def best_hand(cards: Iterable[str]) -> HandValue:
    """The best five-card hand of 5 to 7 distinct card codes."""
    codes = tuple(cards)
    if not 5 <= len(codes) <= 7:
        raise InvalidInputError(
            f"A poker hand is made from 5 to 7 cards, not {len(codes)}.",
            code="wrong_card_count",
        )
    try:
        parsed = list(map(CARD_INTS.__getitem__, codes))
    except (KeyError, TypeError):
        parsed = [parse_card(code) for code in codes]  # raises the dealer-readable refusal
    if len(set(parsed)) != len(parsed):
        duplicates = sorted({code for code in codes if codes.count(code) > 1})
        raise InvalidInputError(
            f"The same card appears twice: {', '.join(duplicates)}.", code="duplicate_card"
        )
    strength = strength_of(parsed)
    return HandValue(strength, CATEGORIES[strength >> CATEGORY_SHIFT], codes)


_CARD_ORDER = {code: index for index, code in enumerate(ALL_CODES)}  # by rank, then suit
_card_order = _CARD_ORDER.__getitem__


def five_cards_used(codes: Sequence[str], strength: int) -> tuple[str, ...]:
    """The five of `codes` that make `strength`, in order of significance.

    Where a rank could be filled by more than one card, the higher suit (spades, hearts,
    diamonds, clubs) is used, so the odd-chip rule sees the strongest choice.
    """
    if strength >> CATEGORY_SHIFT in (FLUSH, STRAIGHT_FLUSH):
        suits = [code[1] for code in codes]
        flush_suit = max(suits, key=suits.count)
        codes = [code for code in codes if code[1] == flush_suit]
    pool = sorted(codes, key=_card_order, reverse=True)
    pool_ranks = "".join(pool)[::2]
    return tuple([pool[pool_ranks.index(rank) + nth] for rank, nth in _picks(strength)])


@cache
def _picks(strength: int) -> tuple[tuple[str, int], ...]:
    """Each card of a strength as (rank character, how many of that rank come before it)."""
    picks: list[tuple[str, int]] = []
    for rank in significant_ranks(strength):
        char = RANK_CHARS[rank - 2]
        picks.append((char, sum(1 for earlier, _ in picks if earlier == char)))
    return tuple(picks)
