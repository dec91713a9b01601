"""The evaluator against independent libraries on random hands: the order must agree exactly.

Agreement is checked globally, not pair by pair: every strength of ours must always meet the
same reference score, and sorting our strengths must sort the reference scores strictly. Then
for any two hands, ours compare exactly as the reference compares them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations, pairwise

import eval7
import pytest
import treys

from tables.engine.poker.cards import ALL_CODES, RANK_VALUES, SUIT_INDEXES, parse_card
from tables.engine.poker.evaluator import best_hand, strength_of
from tables.engine.poker.ranking import CATEGORIES, category_name, strength_by_rules

PARSED = {code: parse_card(code) for code in ALL_CODES}
EVAL7_CARDS = {code: eval7.Card(code) for code in ALL_CODES}
TREYS_CARDS = {code: treys.Card.new(code) for code in ALL_CODES}
TREYS = treys.Evaluator()

EVAL7_CATEGORIES = dict(
    zip(
        ("High Card", "Pair", "Two Pair", "Trips", "Straight", "Flush", "Full House", "Quads"),
        CATEGORIES,
        strict=False,
    ),
    **{"Straight Flush": "straight_flush"},
)
# treys counts the royal flush (class 0) apart; it is the top straight flush.
TREYS_CLASS_CATEGORIES = ("straight_flush", *reversed(CATEGORIES))


def random_hands(seed: int, count: int, size: int = 7) -> Iterator[tuple[str, ...]]:
    rng = random.Random(seed)
    for _ in range(count):
        yield tuple(rng.sample(ALL_CODES, size))


def eval7_score(hand: Sequence[str]) -> tuple[int, str]:
    value = eval7.evaluate([EVAL7_CARDS[code] for code in hand])
    return value, EVAL7_CATEGORIES[eval7.handtype(value)]


def treys_score(hand: Sequence[str]) -> tuple[int, str]:
    rank = TREYS.evaluate(
        [TREYS_CARDS[code] for code in hand[:2]], [TREYS_CARDS[c] for c in hand[2:]]
    )
    # treys ranks 1 (best) to 7462; negate so that greater is stronger, as ours.
    return -rank, TREYS_CLASS_CATEGORIES[TREYS.get_rank_class(rank)]


def order_disagreements(
    hands: Iterable[tuple[str, ...]], reference: str, limit: int = 10
) -> list[str]:
    """Hands on which our strength and the reference's score disagree in order or category."""
    score = eval7_score if reference == "eval7" else treys_score
    first_seen: dict[int, tuple[int, tuple[str, ...]]] = {}
    problems: list[str] = []
    for hand in hands:
        ours = strength_of([PARSED[code] for code in hand])
        theirs, category = score(hand)
        if category != category_name(ours):
            problems.append(f"{hand}: {category_name(ours)} here, {category} in {reference}")
        first_score, first_hand = first_seen.setdefault(ours, (theirs, hand))
        if first_score != theirs:
            problems.append(f"{hand} ties {first_hand} here, not in {reference}")
        if len(problems) >= limit:
            return problems
    in_our_order = [first_seen[strength] for strength in sorted(first_seen)]
    for (low_score, low_hand), (high_score, high_hand) in pairwise(in_our_order):
        if not low_score < high_score:
            problems.append(f"{low_hand} loses to {high_hand} here, not in {reference}")
    return problems[:limit]


@pytest.mark.parametrize("size", [5, 6, 7])
def test_order_agrees_with_eval7_on_20000_random_hands(size: int) -> None:
    assert order_disagreements(random_hands(size, 20_000, size), "eval7") == []


def test_order_agrees_with_treys_on_20000_random_seven_card_hands() -> None:
    assert order_disagreements(random_hands(11, 20_000), "treys") == []


@pytest.mark.slow
def test_order_agrees_with_eval7_on_a_million_random_seven_card_hands() -> None:
    assert order_disagreements(random_hands(2026, 1_000_000), "eval7") == []


@pytest.mark.slow
def test_order_agrees_with_treys_on_200000_random_seven_card_hands() -> None:
    assert order_disagreements(random_hands(4242, 200_000), "treys") == []


@pytest.mark.parametrize("size", [5, 6, 7])
def test_lookup_tables_agree_with_the_ranking_rules(size: int) -> None:
    for hand in random_hands(100 + size, 10_000, size):
        parsed = [PARSED[code] for code in hand]
        by_rules = strength_by_rules((RANK_VALUES[c[0]], SUIT_INDEXES[c[1]]) for c in hand)
        assert strength_of(parsed) == by_rules, hand


def test_the_five_cards_returned_make_the_same_hand() -> None:
    for hand in random_hands(7, 20_000):
        value = best_hand(hand)
        assert len(set(value.cards)) == 5
        assert set(value.cards) <= set(hand)
        assert best_hand(value.cards).strength == value.strength, hand


@pytest.mark.slow
def test_order_agrees_with_eval7_on_every_five_card_hand() -> None:
    assert order_disagreements(combinations(ALL_CODES, 5), "eval7") == []
