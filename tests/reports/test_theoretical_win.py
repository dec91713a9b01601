"""Theoretical win: handle x the exact house edge of the settings each round was played under."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from fractions import Fraction
from random import Random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from report_samples import MESA_1, STUD_2, context, ledger, mesa_1_facts, mesa_1_rounds

from reports.builders.table_shift import build_table_shift_report
from reports.demo.players import TableDriver, play_siete_round
from reports.figures import RoundSummary, quantise
from reports.inputs.house_edge import weighted_edge
from reports.inputs.rounds import round_summary, shift_rounds, shift_window
from reports.services.storing import produce_report
from reports.shifts import ShiftKey, floor_clock
from tables.engine.siete.house_edge import house_edge
from tables.engine.siete.settings import SieteSettings
from tables.models import Table
from tables.services import custody
from tables.services.corrections import correction_approve, correction_request
from tests.reports.custody_floor import OPENING_CHIPS, Floor, close_books, open_books

SIETE = "siete_y_medio"

PUSH: dict[str, Any] = {"min_stake": 10, "max_stake": 500, "chip": 5}
BANK: dict[str, Any] = {**PUSH, "ties": "bank"}


def edge(mapping: dict[str, Any]) -> Fraction:
    return house_edge(SieteSettings.from_mapping(mapping))


def test_the_report_applies_the_engines_edge_to_the_handle_to_the_cent() -> None:
    exact = edge({})
    report = build_table_shift_report(
        context=context(),
        table=MESA_1,
        ledger=ledger("T1", *mesa_1_facts()),
        rounds=mesa_1_rounds(),
        house_edge=exact,
        alerts=[],
        watermark={"T1": 412},
    )
    figures = report["figures"]
    assert report["rounds"]["handle"] == 175
    assert figures["theoretical_win"] == str(quantise(175 * exact)) == "8.93"
    assert figures["house_edge_percent"] == "5.1016"
    assert figures["actual_less_theoretical"] == str(quantise(-57 - 175 * exact)) == "-65.93"
    assert figures["theoretical_basis"] == "house_edge"


def test_a_stud_table_has_no_theoretical_win_even_when_handed_an_edge() -> None:
    report = build_table_shift_report(
        context=context(),
        table=STUD_2,
        ledger=ledger("T2"),
        rounds=[RoundSummary("1", handle=120, house_net=6, rake_by_pot=(6,))],
        house_edge=edge({}),
        alerts=[],
        watermark={"T2": 9},
    )
    figures = report["figures"]
    assert (figures["theoretical_win"], figures["house_edge_percent"]) == (None, None)
    assert figures["theoretical_basis"] == "none_raked_game"
    assert figures["revenue"] == figures["actual_win"] == 6


def test_a_shift_under_one_set_of_settings_takes_that_edge() -> None:
    assert weighted_edge(PUSH, [], [(100, 7), (60, 30)], game=SIETE) == edge(PUSH)


def test_rounds_count_at_the_edge_of_the_settings_in_force_when_they_settled() -> None:
    changes: list[tuple[int, dict[str, Any]]] = [(20, BANK), (50, PUSH)]
    handles = [(100, 10), (40, 25), (60, 49), (30, 80)]
    expected = (130 * edge(PUSH) + 100 * edge(BANK)) / 230
    assert weighted_edge(PUSH, changes, handles, game=SIETE) == expected


def test_an_idle_table_shows_the_edge_of_its_latest_settings() -> None:
    assert weighted_edge(PUSH, [(20, BANK)], [], game=SIETE) == edge(BANK)
    assert weighted_edge(PUSH, [(20, BANK)], [(50, None)], game=SIETE) == edge(BANK)


# --- Through the services: rounds played, settings changed mid-shift, the stored report. ---


def play_shift_with_a_settings_change(floor: Floor, rounds_each: int) -> tuple[ShiftKey, int]:
    """Rounds at the table's settings, then at bank-takes-ties; returns the last round before."""
    clock = floor_clock()
    key = clock.last_ended(timezone.now())
    moment = clock.bounds(key)[0] + timedelta(minutes=30)
    table = floor.table.pk
    open_books(
        table,
        dealer=floor.dealer,
        pit_boss=floor.pit_boss,
        chips=OPENING_CHIPS,
        occurred_at=moment,
    )
    driver = TableDriver(table, floor.dealer, moment)
    rng = Random(5)
    for _ in range(rounds_each):
        play_siete_round(driver, rng, chip=5, min_stake=10)
    # The tie rule changes only with a second pit boss's approval.
    change = correction_request(
        table_id=table,
        command_type="update_settings",
        command_data={"settings": SieteSettings.from_mapping(BANK).to_mapping()},
        reason="the house takes ties from now on",
        requested_by=floor.pit_boss,
    )
    correction_approve(correction_id=change.pk, approver=floor.other_pit_boss)
    for _ in range(rounds_each):
        play_siete_round(driver, rng, chip=5, min_stake=10)
    close_books(
        table,
        dealer=floor.dealer,
        pit_boss=floor.pit_boss,
        chips=OPENING_CHIPS,
        occurred_at=moment,
    )
    custody.drop_count(table_id=table, amount=0, counted_by=floor.cashier)
    return key, rounds_each


def handles_by_round(table: Table, key: ShiftKey) -> dict[int, int]:
    rows = shift_rounds(table, shift_window(table, key))
    return {row.number: round_summary(table.game, row).handle for row in rows}


@pytest.mark.django_db
def test_the_stored_report_weighs_each_round_at_its_own_settings(floor: Floor) -> None:
    key, last_before = play_shift_with_a_settings_change(floor, rounds_each=3)
    handles = handles_by_round(floor.table, key)
    before = sum(handle for number, handle in handles.items() if number <= last_before)
    after = sum(handle for number, handle in handles.items() if number > last_before)
    assert before > 0
    assert after > 0
    theoretical = before * edge(PUSH) + after * edge(BANK)
    figures = produce_report("table_shift", key, table=floor.table).document["figures"]
    assert figures["theoretical_win"] == str(quantise(theoretical))
    assert figures["house_edge_percent"] == str(quantise(theoretical / (before + after) * 100, 4))


@pytest.mark.django_db
def test_the_report_json_from_the_api_shows_theoretical_beside_actual_win(
    floor: Floor, client_for: Any, auditor_alba: User
) -> None:
    key, _ = play_shift_with_a_settings_change(floor, rounds_each=2)
    report = produce_report("table_shift", key, table=floor.table)
    auditor = client_for(auditor_alba)
    figures = auditor.get(f"/api/reports/{report.pk}").json()["document"]["figures"]
    handle = sum(handles_by_round(floor.table, key).values())
    assert Decimal(figures["theoretical_win"]) > 0
    assert Decimal(figures["theoretical_win"]) < handle * Decimal("0.15")
    assert figures["theoretical_basis"] == "house_edge"
    actual = figures["actual_win"]
    assert Decimal(figures["actual_less_theoretical"]) == actual - Decimal(
        figures["theoretical_win"]
    )
    download = auditor.get(f"/api/reports/{report.pk}/download/json").json()
    assert download["figures"] == figures


@pytest.mark.django_db
def test_the_floor_summary_totals_the_siete_tables_theoretical_win(floor: Floor) -> None:
    key, _ = play_shift_with_a_settings_change(floor, rounds_each=2)
    table_report = produce_report("table_shift", key, table=floor.table).document
    summary = produce_report("floor_summary", key).document
    theoretical = table_report["figures"]["theoretical_win"]
    assert summary["by_game"]["siete_y_medio"]["theoretical_win"] == theoretical
    assert summary["floor"]["theoretical_win"] == theoretical
    assert summary["by_game"]["seven_card_stud"]["theoretical_win"] is None
