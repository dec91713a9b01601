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

from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import NoReturn

from tables.engine.errors import InvalidInputError
from tables.engine.poker import hand_tables
from tables.engine.poker.cards import (
    ALL_CODES,
    CARD_INTS,
    FLUSH_BITS,
    RANK_CHARS,
    RANK_KEY_SHIFT,
    SUIT_CHARS,
    SUIT_FIELD_BITS,
    parse_card,
)
from tables.engine.poker.rank_hash import BUCKETS, SLOTS
from tables.engine.poker.ranking import (
    CATEGORIES,
    CATEGORY_SHIFT,
    FLUSH,
    STRAIGHT_FLUSH,
    significant_ranks,
)
from tables.engine.poker.table_codec import decode_uints

__all__ = ["HandValue", "best_hand", "parse_card", "strength_of"]


class HandValue(tuple[int, tuple[str, ...]]):
    """A hand's worth: the record ``(strength, hand)``. Compares and hashes by `strength` alone.

    `hand` holds the 5 to 7 cards it was made from; `category` and `cards`, the five of them
    that make it, are worked out when asked for, since ranking a showdown compares strengths
    and never needs them. Being a tuple, a HandValue cannot be changed once made; it is made
    by :func:`best_hand` (a tuple subclass with no constructor of its own is the cheapest
    immutable record Python builds, and ``best_hand`` makes one per hand).
    """

    __slots__ = ()

    @property
    def strength(self) -> int:
        """Greater is stronger; equal is a tie (see :mod:`tables.engine.poker.ranking`)."""
        return self[0]

    @property
    def hand(self) -> tuple[str, ...]:
        """The 5 to 7 card codes the value was made from, in the order given."""
        return self[1]

    @property
    def category(self) -> str:
        """The category name: ``"high_card"`` up to ``"straight_flush"``."""
        return CATEGORIES[self[0] >> CATEGORY_SHIFT]

    @property
    def cards(self) -> tuple[str, ...]:
        """The five cards used, in order of significance (see :func:`five_cards_used`)."""
        return five_cards_used(self[1], self[0])

    # Comparisons look at the strength only: the tuple's own ones would let the card codes
    # break a tie between equal hands.
    def __eq__(self, other: object) -> bool:
        if isinstance(other, HandValue):
            return self[0] == other[0]
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if isinstance(other, HandValue):
            return self[0] != other[0]
        return NotImplemented

    def __lt__(self, other: tuple[int | tuple[str, ...], ...]) -> bool:
        if isinstance(other, HandValue):
            return self[0] < other[0]
        return NotImplemented

    def __le__(self, other: tuple[int | tuple[str, ...], ...]) -> bool:
        if isinstance(other, HandValue):
            return self[0] <= other[0]
        return NotImplemented

    def __gt__(self, other: tuple[int | tuple[str, ...], ...]) -> bool:
        if isinstance(other, HandValue):
            return self[0] > other[0]
        return NotImplemented

    def __ge__(self, other: tuple[int | tuple[str, ...], ...]) -> bool:
        if isinstance(other, HandValue):
            return self[0] >= other[0]
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self[0])

    def __repr__(self) -> str:
        return f"HandValue({self[0]}, {self.category!r}, cards={self.cards!r})"


def _short_hand_table() -> dict[int, int]:
    """Rank key to strength for five and six cards. Equal strengths share one int object:
    fewer objects for the processor's cache to hold."""
    keys = decode_uints(hand_tables.SHORT_HAND_KEYS).tolist()
    strengths = decode_uints(hand_tables.SHORT_HAND_STRENGTHS).tolist()
    shared: dict[int, int] = {}
    return {
        key: shared.setdefault(strength, strength)
        for key, strength in zip(keys, strengths, strict=True)
    }


# Seven cards without a flush: the strength in slot `rank_key * spread[rank_key % BUCKETS] %
# SLOTS` (see rank_hash). Kept as a byte string and an int array, the most compact forms.
_SEVEN_CARD_SPREAD = bytes(decode_uints(hand_tables.SEVEN_CARD_SPREAD, "B"))
_SEVEN_CARD_SLOTS = decode_uints(hand_tables.SEVEN_CARD_SLOTS)
_SHORT_HANDS = _short_hand_table()
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
    table lookup. With a flush, no quads or full house can exist among seven cards, so the
    flush suit's ranks alone decide.
    """
    total = sum(cards)
    flush = total & FLUSH_BITS
    if not flush:
        rank_key = total >> RANK_KEY_SHIFT
        if len(cards) == 7:
            return _SEVEN_CARD_SLOTS[rank_key * _SEVEN_CARD_SPREAD[rank_key % BUCKETS] % SLOTS]
        return _SHORT_HANDS[rank_key]
    suit_bit = flush >> _FLUSH_BIT_TO_SUIT_BIT
    ranks = 0
    for card in cards:
        if card & suit_bit:
            ranks |= _RANK_BIT[card]
    return _FLUSH[ranks]


# best_hand's own card form: a parsed card shifted above a field of three bits for each of
# the 52 cards, in which the card sets the lowest of its own three. Up to seven distinct cards
# add up to one bit per field; a card given twice (up to seven times) makes its field 2 to 7
# and so sets one of the field's upper bits. One sum thus parses the codes, shows duplicates
# and keys the tables, and one mask sends both duplicates and flushes off the common path.
_FIELD_BITS = 3
_OWN_BITS = _FIELD_BITS * len(ALL_CODES)
_DUPLICATE_BITS = sum(0b110 << (_FIELD_BITS * index) for index in range(len(ALL_CODES)))
_CHECKED_CARD: dict[str, int] = {
    code: (CARD_INTS[code] << _OWN_BITS) | (1 << (_FIELD_BITS * index))
    for index, code in enumerate(ALL_CODES)
}
_checked_card = _CHECKED_CARD.__getitem__
_CHECKED_FLUSH_BITS = FLUSH_BITS << _OWN_BITS
_OFF_COMMON_PATH = _DUPLICATE_BITS | _CHECKED_FLUSH_BITS
_CHECKED_RANK_KEY_SHIFT = RANK_KEY_SHIFT + _OWN_BITS
# For each suit's flush bit: a card's rank bit if it is of that suit, else 0.
_FLUSH_SUIT_RANK_BIT: dict[int, Callable[[str], int]] = {
    32 << (SUIT_FIELD_BITS * index + _OWN_BITS): {
        code: 1 << RANK_CHARS.index(code[0]) if code[1] == suit else 0 for code in ALL_CODES
    }.__getitem__
    for index, suit in enumerate(SUIT_CHARS)
}


def best_hand(cards: Iterable[str]) -> HandValue:
    """The best five-card hand of 5 to 7 distinct card codes."""
    codes = tuple(cards)
    if len(codes) != 7:
        return _best_of_five_or_six(codes)
    first, second, third, fourth, fifth, sixth, seventh = codes
    # Seven cards, the case a showdown meets: the sum written out, since the interpreter adds
    # two ints faster than sum() does once they pass 64 bits.
    try:
        total = (
            _CHECKED_CARD[first]
            + _CHECKED_CARD[second]
            + _CHECKED_CARD[third]
            + _CHECKED_CARD[fourth]
            + _CHECKED_CARD[fifth]
            + _CHECKED_CARD[sixth]
            + _CHECKED_CARD[seventh]
        )
    except (KeyError, TypeError):
        _refuse_the_first_bad_code(codes)
        raise
    if total & _OFF_COMMON_PATH:
        return _duplicate_or_flush(codes, total)
    rank_key = total >> _CHECKED_RANK_KEY_SHIFT
    slot = rank_key * _SEVEN_CARD_SPREAD[rank_key % BUCKETS] % SLOTS
    return HandValue((_SEVEN_CARD_SLOTS[slot], codes))


def _best_of_five_or_six(codes: tuple[str, ...]) -> HandValue:
    count = len(codes)
    if not 5 <= count <= 6:
        raise InvalidInputError(
            f"A poker hand is made from 5 to 7 cards, not {count}.",
            code="wrong_card_count",
            params={"count": count},
        )
    try:
        total = sum(map(_checked_card, codes))
    except (KeyError, TypeError):
        _refuse_the_first_bad_code(codes)
        raise
    if total & _OFF_COMMON_PATH:
        return _duplicate_or_flush(codes, total)
    return HandValue((_SHORT_HANDS[total >> _CHECKED_RANK_KEY_SHIFT], codes))


def _duplicate_or_flush(codes: tuple[str, ...], total: int) -> HandValue:
    if total & _DUPLICATE_BITS:
        _refuse_duplicates(codes)
    # A flush among at most seven cards excludes quads and a full house: its suit decides.
    rank_bit_in_suit = _FLUSH_SUIT_RANK_BIT[total & _CHECKED_FLUSH_BITS]
    return HandValue((_FLUSH[sum(map(rank_bit_in_suit, codes))], codes))


def _refuse_the_first_bad_code(codes: Sequence[str]) -> None:
    for code in codes:
        parse_card(code)  # raises the dealer-readable refusal


def _refuse_duplicates(codes: Sequence[str]) -> NoReturn:
    duplicates = sorted({code for code in codes if codes.count(code) > 1})
    raise InvalidInputError(
        f"The same card appears twice: {', '.join(duplicates)}.",
        code="duplicate_card",
        params={"cards": ", ".join(duplicates)},
    )


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
