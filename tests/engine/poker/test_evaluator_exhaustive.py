"""Every one of the 2,598,960 five-card hands: the standard category counts and 7,462 classes."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from tables.engine.poker.cards import ALL_CODES, parse_card
from tables.engine.poker.evaluator import strength_of
from tables.engine.poker.ranking import CATEGORY_SHIFT, category_name


def test_all_five_card_hands_fall_into_the_standard_counts() -> None:
    strengths = Counter(map(strength_of, combinations(map(parse_card, ALL_CODES), 5)))
    by_category: Counter[str] = Counter()
    for strength, hands in strengths.items():
        by_category[category_name(strength)] += hands
    assert by_category == {
        "straight_flush": 40,
        "four_of_a_kind": 624,
        "full_house": 3_744,
        "flush": 5_108,
        "straight": 10_200,
        "three_of_a_kind": 54_912,
        "two_pair": 123_552,
        "pair": 1_098_240,
        "high_card": 1_302_540,
    }
    assert len(strengths) == 7_462
    distinct_by_category = Counter(category_name(s) for s in strengths)
    assert distinct_by_category["straight_flush"] == 10
    assert distinct_by_category["high_card"] == 1_277
    assert max(strengths) >> CATEGORY_SHIFT == 8
