"""Known hands: each category, the wheel, kickers, seven-card subtleties and the input checks."""

from __future__ import annotations

import pytest

from tables.engine.errors import InvalidInputError
from tables.engine.poker.cards import parse_card
from tables.engine.poker.evaluator import HandValue, best_hand, strength_of


def hand(text: str) -> HandValue:
    return best_hand(text.split())


@pytest.mark.parametrize(
    ("cards", "category", "used"),
    [
        ("As Ks Qs Js Ts 2c 3d", "straight_flush", "As Ks Qs Js Ts"),
        ("9h 9d 9s 9c Kd 2c 3d", "four_of_a_kind", "9s 9h 9d 9c Kd"),
        ("Kh Kd 4c 4s 4h 2c 8d", "full_house", "4s 4h 4c Kh Kd"),
        ("2h 7h 9h Jh Kh Ac Ad", "flush", "Kh Jh 9h 7h 2h"),
        ("6c 7d 8h 9s Tc 2d 2h", "straight", "Tc 9s 8h 7d 6c"),
        ("Qc Qd Qh 2s 7c 9d Kh", "three_of_a_kind", "Qh Qd Qc Kh 9d"),
        ("Jc Jd 5h 5s 9c 2d Ah", "two_pair", "Jd Jc 5s 5h Ah"),
        ("8c 8d 2h 5s 9c Jd Ah", "pair", "8d 8c Ah Jd 9c"),
        ("2c 4d 6h 8s Tc Qd Ah", "high_card", "Ah Qd Tc 8s 6h"),
    ],
)
def test_each_category_is_named_with_its_five_cards(cards: str, category: str, used: str) -> None:
    value = hand(cards)
    assert value.category == category
    assert value.cards == tuple(used.split())


def test_categories_order_from_straight_flush_down_to_high_card() -> None:
    ladder = [
        hand("As Ks Qs Js Ts"),
        hand("9h 9d 9s 9c Kd"),
        hand("Kh Kd 4c 4s 4h"),
        hand("2h 7h 9h Jh Kh"),
        hand("6c 7d 8h 9s Tc"),
        hand("Qc Qd Qh 2s 7c"),
        hand("Jc Jd 5h 5s 9c"),
        hand("8c 8d 2h 5s 9c"),
        hand("2c 4d 6h 8s Ac"),
    ]
    assert ladder == sorted(ladder, reverse=True)
    assert len({value.strength for value in ladder}) == len(ladder)


def test_the_wheel_is_a_straight_played_five_high() -> None:
    wheel = hand("Ah 2c 3d 4s 5h Kd 9c")
    assert wheel.category == "straight"
    assert wheel.cards == ("5h", "4s", "3d", "2c", "Ah")
    assert wheel < hand("2c 3d 4s 5h 6h")
    assert wheel > hand("Ah Ad Ac Ks Qd")


def test_the_steel_wheel_is_the_lowest_straight_flush() -> None:
    steel = hand("Ad 2d 3d 4d 5d Kc Kh")
    assert steel.category == "straight_flush"
    assert steel.cards == ("5d", "4d", "3d", "2d", "Ad")
    assert steel < hand("2c 3c 4c 5c 6c")
    assert steel > hand("Ah Ad Ac As Kd")


def test_an_ace_high_straight_beats_a_king_high_straight() -> None:
    assert hand("Ac Kd Qh Js Tc") > hand("Kd Qh Js Tc 9d")


def test_an_ace_does_not_wrap_around_the_top() -> None:
    assert hand("Qc Kd Ah 2s 3c").category == "high_card"


def test_kickers_decide_between_equal_pairs() -> None:
    assert hand("8c 8d Ah Jd 9c") > hand("8h 8s Ad Jc 7c")
    assert hand("8c 8d Ah Jd 9c 3c 2d") == hand("8h 8s Ad Jc 9d 4h 2h")


def test_three_pairs_play_the_best_two_with_the_best_kicker() -> None:
    value = hand("Kc Kd 7h 7s 3c 3d 2h")
    assert value.category == "two_pair"
    assert value.cards == ("Kd", "Kc", "7s", "7h", "3d")
    assert value == hand("Kh Ks 7c 7d 3h 2s 2c")


def test_two_trips_make_a_full_house_with_the_higher_trips() -> None:
    value = hand("5c 5d 5h Js Jc Jd 2h")
    assert value.category == "full_house"
    assert value.cards == ("Js", "Jd", "Jc", "5h", "5d")


def test_a_flush_beats_a_straight_in_the_same_seven_cards() -> None:
    value = hand("4h 5h 6c 7h 8d 9h Kh")
    assert value.category == "flush"
    assert value.cards == ("Kh", "9h", "7h", "5h", "4h")


def test_suits_never_break_a_tie() -> None:
    assert hand("As Ks Qs Js 9s") == hand("Ah Kh Qh Jh 9h")
    assert hash(hand("Ac Kd Qh Js 9s")) == hash(hand("Ad Kc Qs Jh 9h"))


def test_six_cards_are_accepted() -> None:
    assert hand("Ac Ad Ah 2s 2c 9d").category == "full_house"


def test_strength_of_parsed_cards_matches_best_hand() -> None:
    codes = ["As", "Kd", "Qh", "Js", "Tc", "2c", "3d"]
    assert strength_of([parse_card(code) for code in codes]) == best_hand(codes).strength


@pytest.mark.parametrize("cards", ["As Ks Qs Js", "As Ks Qs Js Ts 9s 8s 7s", ""])
def test_a_hand_needs_five_to_seven_cards(cards: str) -> None:
    with pytest.raises(InvalidInputError) as refused:
        hand(cards)
    assert refused.value.code == "wrong_card_count"


def test_a_card_may_not_appear_twice() -> None:
    with pytest.raises(InvalidInputError) as refused:
        hand("As Ks Qs Js As")
    assert refused.value.code == "duplicate_card"
    assert "As" in refused.value.message


@pytest.mark.parametrize("code", ["as", "AS", "10h", "1c", "Ax", "", "Ahh"])
def test_anything_but_a_card_code_is_refused(code: str) -> None:
    with pytest.raises(InvalidInputError) as refused:
        best_hand(["Ks", "Qs", "Js", "Ts", code])
    assert refused.value.code == "invalid_card"


def test_a_hand_value_keeps_the_cards_it_was_made_from() -> None:
    value = hand("Kc Kd 7h 7s 3c 3d 2h")
    assert value.hand == ("Kc", "Kd", "7h", "7s", "3c", "3d", "2h")
    assert "two_pair" in repr(value)
    assert "'Kd', 'Kc', '7s', '7h', '3d'" in repr(value)


def test_equal_hands_are_one_key_in_a_mapping() -> None:
    winners = {hand("As Ks Qs Js 9s"): "seat 1"}
    assert winners[hand("Ah Kh Qh Jh 9h")] == "seat 1"
