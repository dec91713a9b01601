"""The spread of one stake: the engine's exact variance, checked by a separate enumeration, by a
long simulation, and by how often honest shifts fall outside the band built from it."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from math import sqrt
from random import Random
from statistics import NormalDist

import pytest
from siete_exact_variance import exact_variance

from reports.figures import BAND_Z, shift_band
from tables.engine.siete.house_edge import (
    house_edge,
    house_edge_standing_on,
    unit_variance,
    unit_variance_standing_on,
)
from tables.engine.siete.settings import SieteSettings
from tables.engine.siete.simulation import (
    STAKE_CHIPS,
    FreshDeck,
    play_round_by_rules,
    simulate,
    simulation_settings,
)

DEFAULT = SieteSettings()
# Found by the test-side enumeration (the slow test below recomputes them).
OPTIMAL_VARIANCE = Fraction(
    438688667431723364703850051061, 459672550324520331469671000000
)  # 0.954350
STANDING_ON_FIVE_VARIANCE = Fraction(
    16906133045150814127532928547, 17812311325075162844449751250
)  # 0.949126
MOST_RETURNED = 3  # a Real paid 2 : 1 returns the stake and two more


def settings(**values: object) -> SieteSettings:
    return SieteSettings.from_mapping(values)


def test_the_default_tables_unit_variance_is_the_optimal_players() -> None:
    assert unit_variance(DEFAULT) == OPTIMAL_VARIANCE
    assert unit_variance_standing_on(DEFAULT, 10) == STANDING_ON_FIVE_VARIANCE


def test_a_player_standing_on_one_card_gives_the_separate_enumerations_variance() -> None:
    assert unit_variance_standing_on(DEFAULT, 1) == exact_variance(1)


@pytest.mark.slow
def test_the_separate_enumeration_agrees_with_the_engine_exactly() -> None:
    assert exact_variance(None) == OPTIMAL_VARIANCE
    assert exact_variance(10) == STANDING_ON_FIVE_VARIANCE
    bank = settings(ties="bank")
    assert exact_variance(10, "bank") == unit_variance_standing_on(bank, 10)


def test_the_variance_moves_with_the_rules_that_move_the_edge_only() -> None:
    same = settings(min_stake=10, max_stake=1000, chip=5, burn_after_shuffle=1)
    assert unit_variance(same) == unit_variance(DEFAULT)
    assert unit_variance(settings(decks=8)) != unit_variance(DEFAULT)
    # A tie the bank takes turns a return of 1 into 0: the spread widens.
    assert unit_variance(settings(ties="bank")) > unit_variance(DEFAULT)


def test_the_variance_lies_within_what_returns_of_zero_to_three_allow() -> None:
    mean = 1 - house_edge(DEFAULT)
    # Bhatia-Davis: a variable on [0, 3] with mean m has variance at most (3 - m) m.
    assert 0 < unit_variance(DEFAULT) <= (MOST_RETURNED - mean) * mean


def test_standing_on_a_total_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError):
        unit_variance_standing_on(DEFAULT, 16)


def test_a_long_simulation_has_the_exact_variance_of_its_strategy() -> None:
    """One box, draw below 5: the sample variance of 200,000 stakes lands within 5 of its own
    standard errors. That error is bounded without knowing the distribution: the fourth central
    moment of a variable within M of its mean is at most M² x its variance."""
    rounds = 200_000
    report = simulate(rounds, 1, 5, Random(14), ties="push")
    exact = STANDING_ON_FIVE_VARIANCE
    mean = 1 - house_edge_standing_on(simulation_settings("push"), 10)
    spread = float(max(mean, MOST_RETURNED - mean))
    error = sqrt((spread**2 * float(exact) - float(exact) ** 2) / rounds)
    assert abs(float(Decimal(report["round_return_variance"])) - float(exact)) < 5 * error


def test_the_band_quantiles_are_the_normal_distributions() -> None:
    normal = NormalDist()
    assert BAND_Z["95"] == Decimal(f"{normal.inv_cdf(0.975):.6f}")
    assert BAND_Z["99"] == Decimal(f"{normal.inv_cdf(0.995):.6f}")


def test_an_honest_shift_falls_outside_the_bands_as_often_as_they_say() -> None:
    """3,000 shifts of 150 rounds, one box of one unit (2 chips), drawing below 5.

    At p = 1 % the count outside 99 % is binomial (n 3,000, mean 30, sd 5.4); at p = 5 %,
    mean 150, sd 11.9. The bounds sit about 4 sd away, and wider below than above to leave room
    for the small skew and the whole chips of a 150-round sum (honest runs land near 25 and
    140); a band built from a variance 20 % too small puts about 225 outside 95 % and fails."""
    shifts, rounds = 3000, 150
    table = simulation_settings("push")
    edge, variance = house_edge_standing_on(table, 10), unit_variance_standing_on(table, 10)
    deck, outside = FreshDeck(Random(7)), {"95": 0, "99": 0}
    for _ in range(shifts):
        house = 0
        for _ in range(rounds):
            (result,) = play_round_by_rules(deck, 1, 10, table)
            house -= result.net
        band = shift_band(
            theoretical_win=rounds * STAKE_CHIPS * edge,
            result_variance=rounds * STAKE_CHIPS**2 * variance,
            actual_win=house,
        )
        for level in band.levels:
            outside[level.confidence] += level.outside
    assert 10 <= outside["99"] <= 55
    assert 100 <= outside["95"] <= 200
