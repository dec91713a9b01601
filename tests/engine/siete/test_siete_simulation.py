from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from random import Random

import pytest
from siete_exact_return import exact_return, player_hands

from tables.engine.siete.simulation import simulate

# Computed by siete_exact_return.exact_return(5) (a few seconds; the slow test recomputes it).
EXACT_RETURN_STANDING_ON_FIVE = Fraction(357670127447723, 377489722509900)


@pytest.mark.parametrize(
    ("seats", "stand_on", "ties"), [(1, 5, "push"), (6, "4.5", "bank"), (3, "6.5", "push")]
)
def test_the_fast_path_and_decide_evolve_deal_and_settle_identically(
    seats: int, stand_on: object, ties: str
) -> None:
    by_rules = simulate(200, seats, stand_on, Random(11), ties=ties, via="rules")
    by_engine = simulate(200, seats, stand_on, Random(11), ties=ties, via="engine")
    by_rules.pop("via")
    by_engine.pop("via")
    assert by_rules == by_engine


def test_outcomes_partition_the_hands_and_the_money_adds_up() -> None:
    report = simulate(5000, 4, 5, Random(3))
    assert report["hands"] == 20000 == report["staked"]
    assert sum(report["outcomes"].values()) == report["hands"]
    wins = sum(report["outcomes"][k] for k in ("bank_bust_win", "win_real", "win_siete_y_medio",
                                                "win_puntaje"))  # fmt: skip
    assert sum(report["payouts"].values()) == wins
    payouts = report["payouts"]
    returned = (
        report["outcomes"]["push"]
        + 3 * payouts["real"]
        + Fraction(5, 2) * payouts["siete_y_medio"]
        + 2 * payouts["puntaje"]
    )
    assert Fraction(report["returned"]) == returned
    assert Fraction(report["rtp_exact"]) == returned / report["staked"]


def test_the_same_seed_gives_the_same_report() -> None:
    assert simulate(2000, 2, 5, Random(5)) == simulate(2000, 2, 5, Random(5))


def test_the_bank_rule_on_ties_lowers_the_return() -> None:
    push = simulate(3000, 1, 5, Random(9))
    bank = simulate(3000, 1, 5, Random(9), ties="bank")
    assert push["outcomes"]["push"] > 0
    assert bank["outcomes"]["push"] == 0
    assert Decimal(bank["rtp"]) < Decimal(push["rtp"])


def test_a_short_simulation_agrees_with_the_exact_return() -> None:
    report = simulate(20000, 1, 5, Random(2024))
    error = Decimal(report["rtp_standard_error"])
    exact = (
        Decimal(EXACT_RETURN_STANDING_ON_FIVE.numerator) / EXACT_RETURN_STANDING_ON_FIVE.denominator
    )
    assert abs(Decimal(report["rtp"]) - exact) < 4 * error


@pytest.mark.slow
def test_the_exact_enumeration_and_200k_simulated_rounds_agree() -> None:
    exact = exact_return(Fraction(5))
    assert exact == EXACT_RETURN_STANDING_ON_FIVE
    report = simulate(200_000, 1, 5, Random(7))
    error = Decimal(report["rtp_standard_error"])
    assert error < Decimal("0.003")
    assert abs(Decimal(report["rtp"]) - Decimal(exact.numerator) / exact.denominator) < 4 * error


def test_the_enumeration_finds_the_two_card_hands_with_their_exact_odds() -> None:
    hands = player_hands(Fraction(5))
    assert sum(hands.values()) == 1
    # A figure first (12 in 40), then the 7 of its suit (1 in 39) or of another suit (3 in 39).
    assert hands[("real", 15)] == Fraction(12, 40) * Fraction(1, 39)
    assert hands[("siete_y_medio", 15)] == Fraction(12, 40) * Fraction(3, 39)
    # Standing on 7: a single 7 is the only one-card stand.
    assert hands[("puntaje", 14)] > Fraction(4, 40)
