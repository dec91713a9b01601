"""Card codes: exactly 52 of them, rank upper case and suit lower case, each with one int."""

from __future__ import annotations

from itertools import combinations_with_replacement

import pytest

from tables.engine.errors import InvalidInputError
from tables.engine.poker.cards import (
    ALL_CODES,
    FLUSH_BITS,
    SUIT_CHARS,
    card_code,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)


def test_there_are_52_distinct_codes_with_52_distinct_ints() -> None:
    assert len(set(ALL_CODES)) == 52
    assert len({parse_card(code) for code in ALL_CODES}) == 52


def test_every_code_round_trips_through_its_int() -> None:
    assert all(card_code(parse_card(code)) == code for code in ALL_CODES)


@pytest.mark.parametrize(
    ("code", "rank", "suit"),
    [("2c", 2, 0), ("9d", 9, 1), ("Th", 10, 2), ("Js", 11, 3), ("Qc", 12, 0), ("Kd", 13, 1)],
)
def test_rank_and_suit_are_read_from_the_code(code: str, rank: int, suit: int) -> None:
    assert (rank_of(parse_card(code)), suit_of(parse_card(code))) == (rank, suit)


def test_the_ace_ranks_high() -> None:
    assert rank_of(parse_card("As")) == 14


def test_several_codes_parse_in_order() -> None:
    assert tuple(map(card_code, parse_cards(["Ah", "2c", "Td"]))) == ("Ah", "2c", "Td")


@pytest.mark.parametrize(
    "code", ["ah", "AH", "aH", "10c", "T", "Tx", "1s", " As", "As ", "", "Asd"]
)
def test_only_upper_case_rank_and_lower_case_suit_are_cards(code: str) -> None:
    with pytest.raises(InvalidInputError) as refused:
        parse_card(code)
    assert refused.value.code == "invalid_card"
    assert refused.value.status == 422


def test_a_non_string_is_not_a_card() -> None:
    with pytest.raises(InvalidInputError) as refused:
        parse_card(14)  # type: ignore[arg-type]
    assert refused.value.code == "invalid_card"


def test_an_unhashable_value_is_not_a_card() -> None:
    with pytest.raises(InvalidInputError) as refused:
        parse_card(["As"])  # type: ignore[arg-type]
    assert refused.value.code == "invalid_card"


def test_the_flush_bits_are_set_exactly_when_five_cards_share_a_suit() -> None:
    # Every way up to seven cards can fall into suits. The rank weights sit above the suit
    # fields, so any distinct ranks serve.
    for size in range(8):
        for suits in combinations_with_replacement(SUIT_CHARS, size):
            ranks = "23456789T"
            cards = [parse_card(ranks[i] + suit) for i, suit in enumerate(suits)]
            has_flush = max((suits.count(suit) for suit in SUIT_CHARS), default=0) >= 5
            assert bool(sum(cards) & FLUSH_BITS) == has_flush, suits
