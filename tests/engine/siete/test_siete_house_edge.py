from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from random import Random
from typing import Any

import pytest
from siete_exact_optimal import optimal_return
from siete_exact_return import exact_return

from tables.engine.siete.house_edge import (
    VALUES,
    edge_for,
    edge_rules,
    holding_of,
    house_edge,
    house_edge_standing_on,
    optimal_draws,
    standing_return,
)
from tables.engine.siete.settings import SieteSettings
from tables.engine.siete.simulation import simulate, simulation_settings

DEFAULT = SieteSettings()
# Both found by the test-side enumerations (the slow test below recomputes them).
OPTIMAL_EDGE = Fraction(6212251339213, 121770878229000)  # 5.1016 %
STANDING_ON_FIVE_EDGE = 1 - Fraction(357670127447723, 377489722509900)  # 5.2504 %


def settings(**values: Any) -> SieteSettings:
    return SieteSettings.from_mapping(values)


def test_the_default_tables_edge_is_the_optimal_players() -> None:
    assert house_edge(DEFAULT) == OPTIMAL_EDGE
    assert Decimal("0.05101") < OPTIMAL_EDGE < Decimal("0.05102")


def test_a_player_standing_on_five_gives_the_test_side_enumerations_figure() -> None:
    assert house_edge_standing_on(DEFAULT, 10) == STANDING_ON_FIVE_EDGE


def test_standing_on_a_real_pushes_only_against_a_bank_real() -> None:
    # 7O 10O held: 38 cards left. The bank makes a Real by a figure then the 7 of its suit:
    # Oros has no 7 left, the 9 figures of the other suits each have one: 9 / (38 x 37).
    bank_real = Fraction(9, 38 * 37)
    assert standing_return(DEFAULT, ["7O", "10O"]) == 3 * (1 - bank_real) + bank_real
    assert standing_return(settings(ties="bank"), ["7O", "10O"]) == 3 * (1 - bank_real)


def test_standing_on_a_siete_y_medio_loses_only_to_a_bank_real() -> None:
    # 7O 10C held: the bank's figure-then-7 comes 11 x 3 ways; a Real 8 of them (Copas has
    # 2 figures and its 7, Espadas and Bastos 3 figures each with theirs, Oros no 7).
    two_card, real = Fraction(33, 38 * 37), Fraction(8, 38 * 37)
    expected = Fraction(5, 2) * (1 - two_card) + (two_card - real)
    assert expected == Fraction(6915, 2812)
    assert standing_return(DEFAULT, ["7O", "10C"]) == expected


def test_the_suits_of_a_seven_and_a_figure_are_followed_through_eight_decks() -> None:
    # 318 cards left: Oros 23 figures and 7 sevens, each other suit 24 and 8.
    bank_real = Fraction(23 * 7 + 3 * 24 * 8, 318 * 317)
    assert standing_return(settings(decks=8), ["7O", "10O"]) == 3 - 2 * bank_real


def test_a_bust_hand_returns_nothing() -> None:
    assert standing_return(DEFAULT, ["7O", "1C"]) == 0


def test_giving_ties_to_the_bank_raises_the_edge() -> None:
    bank = settings(ties="bank")
    assert house_edge(bank) > house_edge(DEFAULT)
    assert house_edge_standing_on(bank, 10) > house_edge_standing_on(DEFAULT, 10)
    assert Decimal("0.142") < house_edge(bank) < Decimal("0.143")


@pytest.mark.parametrize(
    ("hand", "worse", "better"),
    [("real", "3:2", "2:1"), ("siete_y_medio", "1:1", "3:2"), ("puntaje", "1:1", "6:5")],
)
def test_a_better_paytable_line_lowers_the_edge(hand: str, worse: str, better: str) -> None:
    low = settings(paytable={hand: worse})
    high = settings(paytable={hand: better})
    assert house_edge(low) > house_edge(high)
    assert house_edge_standing_on(low, 10) > house_edge_standing_on(high, 10)


def test_paying_real_three_to_two_costs_the_player_the_real_bonus_exactly() -> None:
    # The paytable does not change the optimal play here, so the difference is the chance of a
    # player's Real that wins or is paid on a bank bust, times the half unit it no longer pays.
    difference = house_edge(settings(paytable={"real": "3:2"})) - house_edge(DEFAULT)
    assert Fraction(1, 2) * Fraction(12, 40) * Fraction(1, 39) * Fraction(9, 10) < difference
    assert difference < Fraction(1, 2) * Fraction(12, 40) * Fraction(1, 39)
    assert optimal_draws(settings(paytable={"real": "3:2"})) == optimal_draws(DEFAULT)


@pytest.mark.parametrize("ties", ["push", "bank"])
def test_no_stand_on_total_beats_the_optimal_player(ties: str) -> None:
    table = settings(ties=ties)
    optimal = house_edge(table)
    fixed = [house_edge_standing_on(table, halves) for halves in range(1, 16)]
    assert all(optimal <= edge for edge in fixed)
    assert optimal < min(fixed)  # best play depends on the cards held, not only on the total


def test_settings_that_move_no_card_leave_the_edge_alone() -> None:
    quiet = settings(
        min_stake=10,
        max_stake=1000,
        chip=5,
        breakage="up",
        shuffle="cut_card",
        burn_after_shuffle=1,
        boxes_per_player=3,
        exposed_player_card="player_option",
        misdrawn_card="next_draw",
    )
    assert edge_rules(quiet) == edge_rules(DEFAULT)
    assert house_edge(quiet) == house_edge(DEFAULT)


def test_more_decks_change_the_edge() -> None:
    edges = [house_edge(settings(decks=decks)) for decks in (1, 2, 8)]
    assert len(set(edges)) == 3
    assert all(Decimal("0.05") < edge < Decimal("0.052") for edge in edges)


def test_the_edge_is_computed_once_per_rules() -> None:
    house_edge(DEFAULT)
    hits = edge_for.cache_info().hits
    assert house_edge(settings(chip=5, min_stake=5, max_stake=500)) == OPTIMAL_EDGE
    assert edge_for.cache_info().hits == hits + 1


def test_the_optimal_player_draws_below_five_but_stands_on_most_fours() -> None:
    draws = optimal_draws(DEFAULT)
    assert all(holding.total < 10 for holding in draws)
    assert {holding.total for holding in draws} == set(range(1, 10))
    # At 4 the player stands, except on a lone 4 or on eight figures.
    fours = {holding for holding in draws if holding.total == 8}
    assert fours == {holding_of(["4O"]), holding_of(["10O", "11O", "12O", "10C"] * 2)}
    assert holding_of(["1O", "3C"]) not in draws
    assert holding_of(["1O", "3C", "10E"]) in draws  # 4½ always draws


def test_holdings_count_cards_by_value_and_mark_a_suited_seven_and_figure() -> None:
    assert holding_of(["7O", "12O"]).same_suit
    assert not holding_of(["7O", "12C"]).same_suit
    assert not holding_of(["10O", "11O"]).same_suit
    held = holding_of(["10O", "11C", "3E"])
    assert (held.total, held.size) == (8, 3)
    assert held.counts[VALUES.index(1)] == 2


def simulated_edge_error(rounds: int, seed: int) -> tuple[Decimal, Decimal]:
    """How far the simulated edge lands from the exact one, and the simulation's standard error.

    Another tie rule and stand-on total than the simulation's own exact check.
    """
    report = simulate(rounds, 1, "4.5", Random(seed), ties="bank")
    exact = house_edge_standing_on(simulation_settings("bank"), 9)
    distance = abs(Decimal(report["house_edge"]) - exact.numerator / Decimal(exact.denominator))
    return distance, Decimal(report["rtp_standard_error"])


def test_a_short_simulation_lands_near_the_exact_edge_of_its_strategy() -> None:
    distance, error = simulated_edge_error(20_000, 43)
    assert distance < 4 * error


@pytest.mark.slow
def test_a_long_simulation_lands_on_the_exact_edge_of_its_strategy() -> None:
    distance, error = simulated_edge_error(200_000, 41)
    assert error < Decimal("0.003")
    assert distance < 4 * error


def test_the_standing_on_argument_is_a_total_from_a_half_to_seven_and_a_half() -> None:
    for halves in (0, 16):
        with pytest.raises(ValueError, match="stand on a total"):
            house_edge_standing_on(DEFAULT, halves)


@pytest.mark.slow
def test_the_independent_enumerations_agree_with_the_engine_exactly() -> None:
    assert 1 - optimal_return("push") == house_edge(DEFAULT) == OPTIMAL_EDGE
    assert 1 - exact_return(Fraction(5), "push") == STANDING_ON_FIVE_EDGE
    bank = settings(ties="bank")
    assert 1 - exact_return(Fraction(5), "bank") == house_edge_standing_on(bank, 10)
