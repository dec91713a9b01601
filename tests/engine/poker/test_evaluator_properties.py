"""Invariants of the ranking, over hands drawn by hypothesis."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engine.poker.cards import ALL_CODES, SUIT_CHARS
from tables.engine.poker.evaluator import best_hand

seven_cards = st.lists(st.sampled_from(ALL_CODES), min_size=7, max_size=7, unique=True)


@settings(max_examples=300, deadline=None)
@given(seven_cards, st.permutations(SUIT_CHARS))
def test_renaming_the_suits_never_changes_a_hand(cards: list[str], suits: list[str]) -> None:
    renamed = [code[0] + suits[SUIT_CHARS.index(code[1])] for code in cards]
    assert best_hand(renamed).strength == best_hand(cards).strength
    assert best_hand(renamed).category == best_hand(cards).category


@settings(max_examples=200, deadline=None)
@given(seven_cards)
def test_seven_cards_are_worth_their_best_five(cards: list[str]) -> None:
    best_five = max(best_hand(five) for five in combinations(cards, 5))
    assert best_hand(cards) == best_five
    assert best_hand(best_hand(cards).cards) == best_five


@settings(max_examples=200, deadline=None)
@given(seven_cards)
def test_a_card_more_never_weakens_a_hand(cards: list[str]) -> None:
    assert best_hand(cards[:5]) <= best_hand(cards[:6]) <= best_hand(cards)


@settings(max_examples=200, deadline=None)
@given(seven_cards)
def test_the_order_of_the_cards_given_does_not_matter(cards: list[str]) -> None:
    value = best_hand(cards)
    reordered = best_hand(list(reversed(cards)))
    assert (reordered.strength, reordered.cards) == (value.strength, value.cards)
