"""The standard ranking, stated directly on ranks and suits.

This is the readable definition of hand strength. The fast evaluator never runs it per hand:
the table generator runs it once over every rank multiset and every flush, and the tests hold
the two against each other and against independent libraries.

A strength is an int: the category in bits 20 and up, then the ranks (2..14) of the five cards
in order of significance, four bits each. Comparing strengths compares category first and then
the ranks card by card, which is exactly the standard tie-break; suits never enter it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

CATEGORIES: tuple[str, ...] = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
)
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

CATEGORY_SHIFT = 20
ACE = 14
WHEEL_RANKS = (5, 4, 3, 2, ACE)


def pack_strength(category: int, ranks: Iterable[int]) -> int:
    """A strength from a category and the five ranks in order of significance."""
    value = category
    for rank in ranks:
        value = (value << 4) | rank
    return value


def category_index(strength: int) -> int:
    """The category number of a strength (0 high card .. 8 straight flush)."""
    return strength >> CATEGORY_SHIFT


def category_name(strength: int) -> str:
    """The category name of a strength, such as ``"full_house"``."""
    return CATEGORIES[strength >> CATEGORY_SHIFT]


def significant_ranks(strength: int) -> tuple[int, ...]:
    """The five ranks of a strength, in order of significance (a wheel ends with the ace)."""
    return tuple((strength >> shift) & 0xF for shift in (16, 12, 8, 4, 0))


def straight_ranks(ranks: Iterable[int]) -> tuple[int, ...] | None:
    """The highest straight among distinct ranks, high card first; the wheel is 5-4-3-2-A."""
    present = set(ranks)
    for high in range(ACE, 5, -1):
        if all(rank in present for rank in range(high - 4, high + 1)):
            return tuple(range(high, high - 5, -1))
    if all(rank in present for rank in WHEEL_RANKS):
        return WHEEL_RANKS
    return None


def flush_strength(suited_ranks: Iterable[int]) -> int:
    """The best hand among five or more distinct ranks of one suit: a straight flush or a flush."""
    ranks = sorted(set(suited_ranks), reverse=True)
    straight = straight_ranks(ranks)
    if straight is not None:
        return pack_strength(STRAIGHT_FLUSH, straight)
    return pack_strength(FLUSH, ranks[:5])


def unsuited_strength(rank_counts: Mapping[int, int]) -> int:
    """The best five-card hand of 5 to 7 cards, ignoring flushes, from a count per rank."""
    by_count = sorted(((count, rank) for rank, count in rank_counts.items() if count), reverse=True)
    ranks_high_first = sorted((rank for _, rank in by_count), reverse=True)
    top_count, top_rank = by_count[0]
    if top_count == 4:
        return pack_strength(QUADS, (top_rank,) * 4 + _kickers(ranks_high_first, {top_rank}, 1))
    if top_count == 3 and by_count[1][0] >= 2:
        return pack_strength(FULL_HOUSE, (top_rank,) * 3 + (by_count[1][1],) * 2)
    straight = straight_ranks(ranks_high_first)
    if straight is not None:
        return pack_strength(STRAIGHT, straight)
    if top_count == 3:
        return pack_strength(TRIPS, (top_rank,) * 3 + _kickers(ranks_high_first, {top_rank}, 2))
    if top_count == 2 and by_count[1][0] == 2:
        high_pair, low_pair = by_count[0][1], by_count[1][1]
        kicker = _kickers(ranks_high_first, {high_pair, low_pair}, 1)
        return pack_strength(TWO_PAIR, (high_pair,) * 2 + (low_pair,) * 2 + kicker)
    if top_count == 2:
        return pack_strength(PAIR, (top_rank,) * 2 + _kickers(ranks_high_first, {top_rank}, 3))
    return pack_strength(HIGH_CARD, ranks_high_first[:5])


def _kickers(ranks_high_first: list[int], used: set[int], count: int) -> tuple[int, ...]:
    return tuple(rank for rank in ranks_high_first if rank not in used)[:count]


def strength_by_rules(cards: Iterable[tuple[int, int]]) -> int:
    """The strength of the best five of 5 to 7 ``(rank, suit)`` cards."""
    cards = list(cards)
    best = unsuited_strength(Counter(rank for rank, _ in cards))
    for suit in {suit for _, suit in cards}:
        suited = [rank for rank, card_suit in cards if card_suit == suit]
        if len(suited) >= 5:
            best = max(best, flush_strength(suited))
    return best
