from decimal import Decimal
from fractions import Fraction

import pytest

from reports.figures import (
    ClassTotal,
    Payout,
    RoundSummary,
    estimated_drop,
    hold_percent,
    quantise,
    stud_revenue,
    summarise_rounds,
    table_win,
    theoretical_win,
)
from tables import games
from tables.engine.errors import InvalidInputError

SIETE_CLASSES = games.payout_classes("siete_y_medio")


def test_win_is_drop_plus_closer_plus_credits_less_opener_and_fills() -> None:
    # 2400 + 2685 + 500 - 3350 - 1500
    assert table_win(drop=2400, opener=3350, closer=2685, fills=1500, credits=500) == 735


def test_a_losing_shift_has_a_negative_win_and_hold() -> None:
    win = table_win(drop=400, opener=3350, closer=2685, fills=1500, credits=500)
    assert win == -1265
    assert hold_percent(win, 400) == Decimal("-316.25")


def test_hold_is_rounded_half_to_even_only_at_the_edge() -> None:
    assert hold_percent(735, 2400) == Decimal("30.62")  # exactly 30.625
    assert hold_percent(1, 3) == Decimal("33.33")
    assert hold_percent(2, 3, places=4) == Decimal("66.6667")


def test_a_table_with_no_drop_has_no_hold() -> None:
    assert hold_percent(-150, 0) is None


def test_the_estimated_drop_is_the_sum_of_the_buy_ins() -> None:
    assert estimated_drop([300, 1200, 750]) == 2250
    assert estimated_drop([]) == 0


def test_stud_revenue_is_the_rake_of_every_pot() -> None:
    assert stud_revenue([3, 1, 2]) == 6


def test_theoretical_win_is_the_handle_times_the_exact_edge() -> None:
    assert theoretical_win(10_000, Fraction(3, 200)) == 150
    assert theoretical_win(100, Fraction(1, 3)) == Fraction(100, 3)
    assert quantise(theoretical_win(100, Fraction(1, 3))) == Decimal("33.33")
    assert quantise(theoretical_win(12_345, Decimal("0.0234"))) == Decimal("288.87")


def test_quantise_never_goes_through_binary_floating_point() -> None:
    assert quantise(Fraction(5, 1000)) == Decimal("0.00")  # half to even
    assert quantise(Fraction(15, 1000)) == Decimal("0.02")
    assert quantise(7) == Decimal("7.00")


def siete_rounds() -> list[RoundSummary]:
    return [
        # Stakes 20 (Real, paid 2:1 = 40), 30 (Puntaje, 1:1 = 30), 50 (bust): house 50 - 70.
        RoundSummary(
            "r1",
            handle=100,
            house_net=-20,
            boxes=3,
            payouts=(Payout("real", 40), Payout("puntaje", 30)),
            busts=1,
        ),
        # Stakes 25 (Siete y Medio, 3:2 = 37.5, paid 37 with breakage down) and 50 (push).
        RoundSummary(
            "r2",
            handle=75,
            house_net=-37,
            boxes=2,
            payouts=(Payout("siete_y_medio", 37),),
            pushes=1,
            breakage=Fraction(1, 2),
        ),
        RoundSummary("r3", handle=60, house_net=0, boxes=2, voided=True),
    ]


def test_round_totals_add_up_the_settled_rounds_and_skip_the_voided_one() -> None:
    totals = summarise_rounds(siete_rounds(), payout_classes=SIETE_CLASSES)
    assert (totals.hands_played, totals.rounds_voided, totals.boxes_played) == (2, 1, 5)
    assert totals.handle == 175
    assert dict(totals.payouts_by_class) == {
        "real": ClassTotal(1, 40),
        "siete_y_medio": ClassTotal(1, 37),
        "puntaje": ClassTotal(1, 30),
    }
    assert totals.payouts_total == 107
    assert (totals.pushes, totals.busts) == (1, 1)
    assert totals.breakage == Fraction(1, 2)
    assert totals.house_net == -57


def test_rake_is_totalled_pot_by_pot() -> None:
    hands = [
        RoundSummary("h1", handle=80, house_net=4, boxes=4, rake_by_pot=(3, 1)),
        RoundSummary("h2", handle=40, house_net=2, boxes=3, rake_by_pot=(2,)),
        RoundSummary("h3", handle=6, house_net=0, boxes=3),  # everyone folded on 3rd street
    ]
    totals = summarise_rounds(hands, payout_classes=games.payout_classes("seven_card_stud"))
    assert totals.rake_by_pot == (5, 1)
    assert totals.rake_total == 6
    assert totals.hands_played == 3


def test_no_rounds_give_zero_totals() -> None:
    totals = summarise_rounds([], payout_classes=SIETE_CLASSES)
    assert (totals.hands_played, totals.handle, totals.house_net, totals.rake_by_pot) == (
        0,
        0,
        0,
        (),
    )
    assert dict(totals.payouts_by_class) == dict.fromkeys(SIETE_CLASSES, ClassTotal(0, 0))


def test_the_payout_classes_are_the_games_own() -> None:
    """Siete's paytable names its classes; a raked game pays none, so lists none."""
    assert SIETE_CLASSES == ("real", "siete_y_medio", "puntaje")
    assert games.payout_classes("seven_card_stud") == ()
    assert games.payout_classes("no_such_game") == ()
    stud = summarise_rounds(
        [RoundSummary("h1", handle=80, house_net=4, rake_by_pot=(4,))],
        payout_classes=games.payout_classes("seven_card_stud"),
    )
    assert dict(stud.payouts_by_class) == {}
    assert stud.payouts_total == 0


@pytest.mark.parametrize(
    ("summary", "code"),
    [
        (RoundSummary("bad", handle=-1, house_net=0), "negative_amount"),
        (
            RoundSummary("bad", handle=10, house_net=0, payouts=(Payout("real", -5),)),
            "negative_amount",
        ),
        (
            RoundSummary("bad", handle=10, house_net=0, payouts=(Payout("royal", 5),)),
            "unknown_hand_class",
        ),
    ],
)
def test_an_impossible_round_summary_is_refused(summary: RoundSummary, code: str) -> None:
    with pytest.raises(InvalidInputError) as refused:
        summarise_rounds([summary], payout_classes=SIETE_CLASSES)
    assert refused.value.code == code


def test_a_raked_games_round_paying_a_hand_class_is_refused() -> None:
    """Siete's classes are no class at a game whose binding pays none."""
    paid = RoundSummary("h1", handle=10, house_net=0, payouts=(Payout("real", 5),))
    with pytest.raises(InvalidInputError) as refused:
        summarise_rounds([paid], payout_classes=games.payout_classes("seven_card_stud"))
    assert refused.value.code == "unknown_hand_class"
