"""Pots, rake, odd chips and showing hands, one rule at a time."""

from decimal import Decimal

import pytest

from tables.engine.stud.pots import Pot, form_pots, odd_chip_order, split
from tables.engine.stud.rake import rake_pots
from tables.engine.stud.settings import StudSettings
from tables.engine.stud.showing import showing_strength, suit_tiebreak
from tables.engine.stud.state import FOLDED, SeatState


def _seat(number: int, committed: int, status: str = "active", stack: int = 0) -> SeatState:
    return SeatState(number, f"p{number}", committed + stack, stack, committed, status=status)


def test_folded_chips_stay_in_the_pots_they_went_into() -> None:
    seats = [_seat(1, 10), _seat(2, 30, stack=5), _seat(3, 25, FOLDED), _seat(4, 30, stack=5)]

    assert form_pots(seats) == (Pot(40, (1, 2, 4)), Pot(55, (2, 4)))


def test_adjacent_pots_with_the_same_players_are_one_pot() -> None:
    seats = [_seat(1, 10, FOLDED), _seat(2, 20, stack=1), _seat(3, 20, stack=1)]

    assert form_pots(seats) == (Pot(50, (2, 3)),)


def test_a_dead_hands_chips_above_every_live_level_go_to_the_last_pot() -> None:
    seats = [_seat(1, 8), _seat(2, 12), _seat(3, 20, "killed")]

    assert form_pots(seats) == (Pot(24, (1, 2)), Pot(16, (2,)))


def test_rake_is_rounded_down_to_the_unit_main_pot_first_until_the_cap() -> None:
    settings = StudSettings.from_mapping(
        {"small_bet": 100, "chip": 5, "rake_percent": "7.5", "rake_cap": 20, "rake_unit": 5}
    )

    assert rake_pots(settings, [130, 95, 400], raked=True) == (5, 5, 10)
    assert rake_pots(settings, [130, 95, 400], raked=False) == (0, 0, 0)


def test_rake_percent_is_exact_decimal() -> None:
    settings = StudSettings.from_mapping({"small_bet": 10, "rake_percent": "10"})

    assert settings.rake_percent == Decimal(10)
    assert rake_pots(settings, [30], raked=True) == (3,)


def test_the_odd_chip_goes_to_the_highest_card_by_suit() -> None:
    five_cards = {
        1: ("Ac", "Kd", "Qh", "Js", "Tc"),
        2: ("Ah", "Ks", "Qc", "Jd", "Th"),
        3: ("Ad", "Kh", "Qs", "Jc", "Td"),
    }

    assert odd_chip_order([1, 2, 3], five_cards, "high_card_by_suit") == [2, 3, 1]
    assert split(32, 1, [2, 3, 1]) == {2: 11, 3: 11, 1: 10}


def test_a_shared_community_card_never_decides_the_odd_chip() -> None:
    five_cards = {1: ("As", "Kc", "9d", "8d", "2h"), 2: ("As", "Kd", "9c", "8c", "2c")}

    assert odd_chip_order([1, 2], five_cards, "high_card_by_suit") == [2, 1]


def test_odd_chips_are_whole_chips_one_per_winner() -> None:
    assert split(35, 5, [4, 1]) == {4: 20, 1: 15}
    assert split(33, 1, [1, 2, 3]) == {1: 11, 2: 11, 3: 11}


@pytest.mark.parametrize(
    ("stronger", "weaker"),
    [
        (["2c", "2d"], ["Ac", "Kd"]),
        (["3c", "3d", "2h", "2s"], ["Ac", "Ad", "Kh", "Qs"]),
        (["5c", "5d", "5h"], ["Ac", "Ad", "Kh", "Ks"]),
        (["9c", "9d", "Ah"], ["9h", "9s", "Kh"]),
        (["Ac", "2d", "4h", "6s"], ["5h", "6h", "7h", "8h"]),
    ],
)
def test_showing_hands_rank_by_matched_cards_never_straights_or_flushes(
    stronger: list[str], weaker: list[str]
) -> None:
    assert showing_strength(stronger) > showing_strength(weaker)


def test_equal_showing_hands_compare_the_most_significant_card_by_suit() -> None:
    assert showing_strength(["Kd", "5c"]) == showing_strength(["Ks", "5h"])
    assert suit_tiebreak(["Ks", "5c"]) > suit_tiebreak(["Kd", "5h"])
