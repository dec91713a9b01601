"""The band a shift's actual win should lie in: the pure figure, and read from a table's log."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from reports.figures import (
    BAND_BASIS_RAKED,
    RoundSummary,
    band_document,
    no_band,
    quantise,
    shift_band,
)
from reports.inputs.rounds import round_summary, shift_rounds, shift_window
from reports.inputs.variance import shift_risk, table_shift_band
from tables.engine.errors import InvalidInputError
from tables.engine.siete.house_edge import house_edge, unit_variance
from tables.engine.siete.settings import SieteSettings
from tests.reports.custody_floor import Floor
from tests.reports.test_theoretical_win import BANK, PUSH, play_shift_with_a_settings_change

SIETE = "siete_y_medio"


def risk(mapping: dict[str, Any]) -> tuple[Fraction, Fraction]:
    settings = SieteSettings.from_mapping(mapping)
    return house_edge(settings), unit_variance(settings)


def test_the_band_is_the_theoretical_win_give_or_take_z_standard_deviations() -> None:
    band = shift_band(theoretical_win=Fraction(50), result_variance=Fraction(400), actual_win=60)
    (ninety_five, ninety_nine) = band.levels
    assert (ninety_five.low, ninety_five.high) == (Decimal("10.80"), Decimal("89.20"))
    assert (ninety_nine.low, ninety_nine.high) == (Decimal("-1.52"), Decimal("101.52"))
    assert band.standard_deviation() == Decimal("20.00")
    assert band.flag is None
    assert band.applicable


def test_a_result_beyond_a_band_is_flagged_with_the_widest_band_it_leaves() -> None:
    def flag(actual: int) -> str | None:
        return shift_band(
            theoretical_win=Fraction(0), result_variance=Fraction(100), actual_win=actual
        ).flag

    assert flag(19) is None  # 1.9 sd
    assert flag(-20) == "95"  # 2.0 sd, on the low side
    assert flag(25) == "95"  # 2.5 sd
    assert flag(26) == "99"  # 2.6 sd


def test_the_flag_is_decided_exactly_not_on_the_rounded_edges() -> None:
    # 1.959964 x 10 = 19.59964: the 95 % edge shows as 19.60, yet 19.5997 is already outside.
    band = shift_band(
        theoretical_win=Fraction(-195997, 10000), result_variance=Fraction(100), actual_win=0
    )
    assert band.levels[0].high == Decimal("0.00")
    assert band.flag == "95"


def test_a_negative_variance_is_refused() -> None:
    with pytest.raises(InvalidInputError) as error:
        shift_band(theoretical_win=Fraction(0), result_variance=Fraction(-1), actual_win=0)
    assert error.value.code == "negative_variance"


def test_a_raked_game_has_no_band_and_says_so() -> None:
    document = band_document(no_band())
    assert document["basis"] == BAND_BASIS_RAKED == "none_raked_game"
    assert document["applicable"] is False
    assert document["levels"] == []
    assert document["theoretical_win"] is None


def test_each_round_adds_its_handle_squared_times_the_variance_of_its_settings() -> None:
    handles = [(100, 10), (40, 25), (60, 49), (30, 80)]
    theoretical, variance = shift_risk(SIETE, PUSH, [(20, BANK), (50, PUSH)], handles)
    (push_edge, push_variance), (bank_edge, bank_variance) = risk(PUSH), risk(BANK)
    assert theoretical == 130 * push_edge + 100 * bank_edge
    assert variance == (100**2 + 30**2) * push_variance + (40**2 + 60**2) * bank_variance


@pytest.mark.django_db
def test_the_band_read_from_the_log_centres_on_the_reports_theoretical_win(floor: Floor) -> None:
    key, last_before = play_shift_with_a_settings_change(floor, rounds_each=3)
    table = floor.refresh()
    rows = shift_rounds(table, shift_window(table, key))
    rounds = [round_summary(table.game, row) for row in rows]
    band = table_shift_band(table, rounds)
    before = [s.handle for s in rounds if int(s.round_id) <= last_before and s.handle]
    after = [s.handle for s in rounds if int(s.round_id) > last_before and s.handle]
    (push_edge, push_variance), (bank_edge, bank_variance) = risk(PUSH), risk(BANK)
    assert band.theoretical_win == sum(before) * push_edge + sum(after) * bank_edge
    assert band.result_variance == (
        sum(h * h for h in before) * push_variance + sum(h * h for h in after) * bank_variance
    )
    assert band.actual_win == sum(s.house_net for s in rounds)
    assert band_document(band)["theoretical_win"] == str(quantise(band.theoretical_win))


@pytest.mark.django_db
def test_a_game_whose_binding_banks_no_hand_has_no_band(tally_table: Any) -> None:
    rounds = [RoundSummary("1", handle=100, house_net=5)]
    assert table_shift_band(tally_table, rounds).basis == BAND_BASIS_RAKED


@pytest.mark.django_db
def test_the_stored_table_shift_report_shows_the_band_beside_the_theoretical_win(
    floor: Floor,
) -> None:
    from reports.services.storing import produce_report

    key, _ = play_shift_with_a_settings_change(floor, rounds_each=2)
    document = produce_report("table_shift", key, table=floor.refresh()).document
    band = document["expected_versus_actual"]
    assert band["basis"] == "house_edge_variance"
    assert band["theoretical_win"] == document["figures"]["theoretical_win"]
    assert band["actual_win"] == document["figures"]["actual_win"]
    assert [level["confidence"] for level in band["levels"]] == ["95", "99"]
    low, high = Decimal(band["levels"][1]["low"]), Decimal(band["levels"][1]["high"])
    assert low < Decimal(band["theoretical_win"]) < high
