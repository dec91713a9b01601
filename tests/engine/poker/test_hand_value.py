"""The HandValue record and best_hand's refusals of repeated cards."""

from __future__ import annotations

import pytest

from tables.engine.errors import InvalidInputError
from tables.engine.poker.cards import ALL_CODES
from tables.engine.poker.evaluator import HandValue, best_hand


def hand(text: str) -> HandValue:
    return best_hand(text.split())


@pytest.mark.parametrize(
    ("cards", "repeated"),
    [
        ("As As Ks Qs Js", "As"),
        ("As As As As As", "As"),
        ("As As As As As As As", "As"),
        ("2c 2c 3d 4h 5s 6c 7d", "2c"),
        ("Ac Ac Ac Ac Kd Qh Js", "Ac"),
        ("Kh 9h Kh 4h 2h 9h", "9h, Kh"),
        ("3d 3d 3d 3d 7d 7d 7d", "3d, 7d"),
    ],
)
def test_a_card_given_twice_or_more_is_refused_and_named(cards: str, repeated: str) -> None:
    with pytest.raises(InvalidInputError) as refused:
        hand(cards)
    assert refused.value.code == "duplicate_card"
    assert repeated in refused.value.message


def test_every_one_of_the_52_cards_is_caught_when_repeated() -> None:
    for index, code in enumerate(ALL_CODES):
        others = [ALL_CODES[(index + step) % 52] for step in (1, 2, 13, 27, 51)]
        for copies in range(2, 8):
            cards = [code] * copies + others[: 7 - copies]
            with pytest.raises(InvalidInputError) as refused:
                best_hand(cards)
            assert refused.value.code == "duplicate_card", cards


def test_distinct_neighbouring_cards_are_not_taken_for_a_repeat() -> None:
    for start in range(len(ALL_CODES) - 6):
        assert best_hand(ALL_CODES[start : start + 7]).hand == ALL_CODES[start : start + 7]


def test_a_hand_value_cannot_be_changed() -> None:
    value = hand("As Ks Qs Js 9s")
    with pytest.raises(AttributeError):
        value.strength = 0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        value.note = "seat 1"  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        value[0] = 0  # type: ignore[index]


def test_hand_values_order_by_strength_alone() -> None:
    spades, hearts = hand("As Ks Qs Js 9s"), hand("Ah Kh Qh Jh 9h")
    pair = hand("2c 2d 7h 9s Jc")
    assert spades == hearts
    assert (spades != hearts) is False
    assert spades <= hearts
    assert spades >= hearts
    assert (spades < hearts) is False
    assert (spades > hearts) is False
    assert pair < spades
    assert pair <= spades
    assert spades > pair
    assert spades >= pair
    assert pair != spades
    assert sorted([spades, pair, hearts])[0] is pair
    assert max(pair, spades) is spades


def test_a_hand_value_is_not_equal_to_a_plain_number_or_tuple() -> None:
    value = hand("As Ks Qs Js 9s")
    assert value != value.strength
    assert value != (value.strength, ("Ah", "Kh", "Qh", "Jh", "9h"))
    with pytest.raises(TypeError):
        assert value < value.strength  # type: ignore[operator]


def test_a_hand_value_keeps_the_codes_as_a_tuple_whatever_was_given() -> None:
    given = ["Kc", "Kd", "7h", "7s", "3c", "3d", "2h"]
    assert best_hand(given).hand == tuple(given)
    assert best_hand(iter(given)).hand == tuple(given)
    assert best_hand(given).category == "two_pair"


@pytest.mark.parametrize("suit", "cdhs")
def test_a_flush_is_found_whatever_suit_it_is_in(suit: str) -> None:
    flush = [f"{rank}{suit}" for rank in "AJ962"]
    others = [f"K{other}" for other in "cdhs" if other != suit][:2]
    value = best_hand(flush[:3] + others + flush[3:])
    assert value.category == "flush"
    assert value.cards == tuple(flush)
