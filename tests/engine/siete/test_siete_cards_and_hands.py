from fractions import Fraction

import pytest

from tables.engine.errors import InvalidInputError
from tables.engine.siete.cards import DECK, VALUE_HALVES, format_points, parse_card
from tables.engine.siete.hands import BUST, PUNTAJE, REAL, SIETE_Y_MEDIO, classify, compare
from tables.engine.siete.settings import SieteSettings
from tables.engine.siete.settlement import (
    BANK_BUST_WIN,
    LOSS,
    PLAYER_BUST,
    PUSH,
    WIN,
    format_amount,
    net_win,
    settle_box,
)


def test_the_spanish_deck_has_forty_cards_without_eights_or_nines() -> None:
    assert len(DECK) == 40
    assert len(set(DECK)) == 40
    assert not any(code.startswith(("8", "9")) for code in DECK)


@pytest.mark.parametrize(
    ("text", "code"), [("7o", "7O"), (" 10b ", "10B"), ("12C", "12C"), ("1e", "1E")]
)
def test_card_codes_are_read_case_insensitively(text: str, code: str) -> None:
    assert parse_card(text) == code


@pytest.mark.parametrize("text", ["8O", "9C", "13B", "x", "", "7Z", "0O", "10", "O7", None, 7])
def test_malformed_card_codes_are_refused_as_invalid_card(text: object) -> None:
    with pytest.raises(InvalidInputError) as refused:
        parse_card(text)
    assert refused.value.code == "invalid_card"


def test_numbers_count_their_value_and_figures_count_a_half() -> None:
    assert VALUE_HALVES["1O"] == 2
    assert VALUE_HALVES["7B"] == 14
    assert {VALUE_HALVES[f"{rank}C"] for rank in (10, 11, 12)} == {1}
    assert sum(VALUE_HALVES.values()) == 236  # 118 points, as RULES.md 1.5 counts


def test_points_are_shown_as_exact_decimals() -> None:
    assert format_points(15) == "7.5"
    assert format_points(14) == "7"


def test_a_seven_and_a_figure_of_the_same_suit_is_real() -> None:
    assert classify(["7O", "12O"]) == REAL
    assert classify(["10B", "7B"]) == REAL


def test_a_seven_and_a_figure_of_different_suits_is_siete_y_medio() -> None:
    assert classify(["7O", "11C"]) == SIETE_Y_MEDIO


def test_a_three_card_seven_and_a_half_is_puntaje() -> None:
    assert classify(["3O", "4C", "10E"]) == PUNTAJE
    assert classify(["7O"]) == PUNTAJE


def test_more_than_seven_and_a_half_is_bust() -> None:
    assert classify(["7O", "1C"]) == BUST
    assert classify(["7O", "10C", "11C"]) == BUST


def test_real_beats_siete_y_medio_which_beats_a_three_card_seven_and_a_half() -> None:
    assert compare(["7O", "12O"], ["7C", "12O"]) == 1
    assert compare(["7C", "12O"], ["7O", "12O"]) == -1
    assert compare(["3O", "4C", "10E"], ["7B", "11C"]) == -1
    assert compare(["3O", "4C", "10E"], ["2O", "5C", "10B"]) == 0
    assert compare(["6O"], ["5C", "10B"]) == 1


DEFAULTS = SieteSettings()


def test_real_pays_two_to_one() -> None:
    result = settle_box(["7O", "12O"], ["7C", "11E"], 10, DEFAULTS)
    assert (result.outcome, result.hand_class, result.net, result.returned) == (WIN, REAL, 20, 30)


def test_siete_y_medio_pays_three_to_two() -> None:
    result = settle_box(["7C", "11E"], ["5O"], 10, DEFAULTS)
    assert (result.hand_class, result.net) == (SIETE_Y_MEDIO, 15)


def test_puntaje_pays_even_money() -> None:
    result = settle_box(["4C", "3E"], ["6O"], 10, DEFAULTS)
    assert (result.hand_class, result.net) == (PUNTAJE, 10)


def test_a_busted_player_loses_even_if_the_bank_busts() -> None:
    result = settle_box(["7C", "4E"], ["6O", "3B"], 10, DEFAULTS)
    assert (result.outcome, result.net, result.returned) == (PLAYER_BUST, -10, 0)


def test_a_busted_bank_pays_by_the_players_own_class() -> None:
    result = settle_box(["10C", "7C"], ["6O", "3B"], 10, DEFAULTS)
    assert (result.outcome, result.hand_class, result.net) == (BANK_BUST_WIN, REAL, 20)


def test_a_tie_pushes_by_default_and_goes_to_the_bank_under_the_bank_rule() -> None:
    assert settle_box(["7C", "11C"], ["7O", "10E"], 10, DEFAULTS).outcome == WIN  # Real vs SyM
    push = settle_box(["5C", "10C"], ["4O", "1E", "10E"], 10, DEFAULTS)
    assert (push.outcome, push.net, push.returned) == (PUSH, 0, 10)
    bank_rule = SieteSettings(ties="bank")
    lost = settle_box(["5C", "10C"], ["4O", "1E", "10E"], 10, bank_rule)
    assert (lost.outcome, lost.net) == (LOSS, -10)
    real_tie = settle_box(["7C", "11C"], ["7O", "10O"], 10, bank_rule)
    assert real_tie.outcome == LOSS


def test_class_order_comes_before_the_tie_rule() -> None:
    bank_rule = SieteSettings(ties="bank")
    assert settle_box(["7C", "11E"], ["3O", "4C", "10E"], 10, bank_rule).outcome == WIN


def test_three_to_two_on_an_odd_stake_breaks_down_by_default() -> None:
    paid, breakage = net_win(5, Fraction(3, 2), DEFAULTS)
    assert (paid, breakage) == (7, Fraction(1, 2))
    assert format_amount(breakage) == "0.5"


def test_breakage_up_rounds_the_net_win_up_to_the_chip() -> None:
    paid, breakage = net_win(5, Fraction(3, 2), SieteSettings(breakage="up"))
    assert (paid, breakage) == (8, Fraction(-1, 2))


def test_breakage_rounds_to_the_smallest_chip_not_to_one_unit() -> None:
    settings = SieteSettings(chip=5, min_stake=5)
    paid, breakage = net_win(15, Fraction(3, 2), settings)
    assert (paid, breakage) == (20, Fraction(5, 2))


def test_amounts_are_written_exactly() -> None:
    assert format_amount(Fraction(-5, 2)) == "-2.5"
    assert format_amount(Fraction(1, 3)) == "1/3"
    assert format_amount(Fraction(7)) == "7"
