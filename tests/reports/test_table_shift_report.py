from datetime import UTC, datetime

import pytest
from report_samples import (
    MESA_1,
    context,
    ledger,
    mesa_1_facts,
    mesa_1_report,
    mesa_1_rounds,
    mesa_3_report,
    mesa_4_report,
    stud_2_report,
)

from reports.builders.document import canonical_json, content_hash
from reports.builders.inputs import Alert
from reports.builders.table_shift import build_table_shift_report
from tables.engine.custody import Closer
from tables.engine.errors import InvalidInputError, NotAllowedNowError


def test_the_table_report_carries_every_hand_computed_figure() -> None:
    figures = mesa_1_report()["figures"]
    assert figures == {
        "drop": 2400,
        "drop_source": "counted",
        "estimated_drop": 2250,
        "win": 735,
        "hold_percent": "30.62",
        "revenue": 735,
        "house_edge_percent": "3.0000",
        "theoretical_win": "5.25",
        "theoretical_basis": "house_edge",
        "actual_win": -57,
        "actual_less_theoretical": "-62.25",
    }


def test_the_table_report_lists_custody_with_slip_numbers_and_signers() -> None:
    custody = mesa_1_report()["custody"]
    assert custody["opener"]["total"] == 3350
    assert custody["opener"]["chips"] == {"1": 50, "5": 60, "25": 40, "100": 20}
    assert custody["closer"]["total"] == 2685
    assert [slip["slip_number"] for slip in custody["fills"]] == [1001, 1002]
    first, voided = custody["fills"]
    assert (first["requested_by"], first["cashier"], first["confirmed_by"]) == (
        "pablo",
        "carla",
        "dana",
    )
    assert first["void"] is None
    assert voided["void"] == {
        "reason": "written for the wrong table",
        "requested_by": "pablo",
        "approved_by": "mara",
    }
    assert (custody["fills_total"], custody["credits_total"]) == (1500, 500)
    assert custody["buy_ins"] == {"count": 3, "total": 2250}
    assert custody["counted_drop"] == {"amount": 2400, "counted_by": "team-b"}


def test_the_table_report_totals_the_rounds() -> None:
    rounds = mesa_1_report()["rounds"]
    assert rounds["hands_played"] == 2
    assert rounds["rounds_voided"] == 1
    assert rounds["handle"] == 175
    assert rounds["payouts_by_class"] == {
        "real": {"count": 1, "amount": 40},
        "siete_y_medio": {"count": 1, "amount": 37},
        "puntaje": {"count": 1, "amount": 30},
    }
    assert (rounds["pushes"], rounds["busts"], rounds["breakage"]) == (1, 1, "0.50")


def test_the_table_report_header_names_the_shift_watermark_and_signers() -> None:
    report = mesa_1_report()
    assert report["kind"] == "table_shift"
    assert (report["gaming_day"], report["shift"]) == ("2026-03-10", "night")
    assert report["generated_at"] == "2026-03-11T05:10:00Z"
    assert report["watermark"] == {"T1": 412}
    assert (report["provisional"], report["reprint"], report["version"]) == (False, False, 1)
    assert report["signatures"] == [
        {"role": "dealer", "name": "dana"},
        {"role": "pit_boss", "name": "pablo"},
    ]
    assert report["alerts"] == [
        {
            "kind": "payout_mismatch",
            "raised_at": "2026-03-10T23:15:00Z",
            "round": "r2",
            "message": "Box 3 was paid 35; the rules say 37.",
        }
    ]


def test_a_losing_shift_reports_a_negative_win_and_hold() -> None:
    figures = mesa_4_report()["figures"]
    assert (figures["win"], figures["hold_percent"]) == (-1100, "-550.00")


def test_a_shift_with_no_activity_still_produces_a_report() -> None:
    report = mesa_3_report()
    assert report["provisional"] is False
    assert (report["figures"]["win"], report["figures"]["hold_percent"]) == (0, None)
    assert report["figures"]["theoretical_win"] == "0.00"
    assert report["rounds"]["hands_played"] == 0
    assert report["custody"]["fills"] == []
    assert report["alerts"] == []


def test_a_table_never_opened_reports_zero_and_is_not_provisional() -> None:
    report = build_table_shift_report(
        context=context(),
        table=MESA_1,
        ledger=ledger("T1"),
        rounds=[],
        house_edge=None,
        alerts=[],
        watermark={"T1": 0},
    )
    assert report["provisional"] is False
    assert report["custody"]["opener"] is None
    assert report["figures"]["win"] == 0
    assert report["signatures"][0] == {"role": "dealer", "name": None}


def test_a_stud_table_earns_its_rake_and_has_no_hold() -> None:
    report = stud_2_report()
    assert report["figures"]["revenue"] == 6
    assert (report["figures"]["win"], report["figures"]["hold_percent"]) == (None, None)
    assert report["figures"]["theoretical_win"] is None
    assert report["rounds"]["rake_by_pot"] == [
        {"pot": "main", "rake": 5},
        {"pot": "side 1", "rake": 1},
    ]


def test_a_report_before_the_shift_ends_is_marked_provisional() -> None:
    early = context(generated_at=datetime(2026, 3, 11, 4, 0, tzinfo=UTC))
    report = mesa_1_report(ctx=early)
    assert report["provisional"] is True
    assert report["provisional_reasons"] == ["shift_not_ended"]


def test_a_table_still_open_makes_the_report_provisional_on_the_estimated_drop() -> None:
    still_open = mesa_1_facts()[:8]  # no closer, no count
    report = mesa_1_report(facts=still_open)
    assert report["provisional_reasons"] == ["drop_not_counted", "no_closer"]
    assert report["figures"]["drop"] == 2250
    assert report["figures"]["drop_source"] == "estimated"
    assert report["figures"]["win"] is None


def test_a_final_report_for_an_open_shift_is_refused() -> None:
    with pytest.raises(NotAllowedNowError) as refused:
        build_table_shift_report(
            context=context(),
            table=MESA_1,
            ledger=ledger("T1", *mesa_1_facts()[:8]),
            rounds=mesa_1_rounds(),
            house_edge=None,
            alerts=[],
            watermark={"T1": 400},
            allow_provisional=False,
        )
    assert refused.value.code == "shift_still_open"


def test_a_rerun_is_a_new_version_marked_as_a_reprint() -> None:
    first, second = mesa_1_report(), mesa_1_report(ctx=context(version=2))
    assert second["reprint"] is True
    assert second["version"] == 2
    assert content_hash(first) != content_hash(second)
    assert {**second, "version": 1, "reprint": False} == first


def test_the_same_shift_builds_the_same_document_and_hash() -> None:
    assert canonical_json(mesa_1_report()) == canonical_json(mesa_1_report())
    assert content_hash(mesa_1_report()) == content_hash(mesa_1_report())
    assert len(content_hash(mesa_1_report())) == 64


def test_a_fresh_opener_is_checked_against_the_previous_closer() -> None:
    previous = Closer({100: 20, 25: 40, 5: 60, 1: 50, 500: 0}, dealer="ines", pit_boss="pablo")
    report = build_table_shift_report(
        context=context(),
        table=MESA_1,
        ledger=ledger("T1", *mesa_1_facts()),
        rounds=[],
        house_edge=None,
        alerts=[],
        watermark={"T1": 412},
        previous_closer=previous,
    )
    assert report["custody"]["opener_check"] == {
        "previous_closer_total": 3350,
        "difference": 0,
        "matches": True,
    }


def test_chips_missing_between_shifts_show_as_a_difference() -> None:
    previous = Closer({100: 21, 25: 40, 5: 60, 1: 50}, dealer="ines", pit_boss="pablo")
    report = build_table_shift_report(
        context=context(),
        table=MESA_1,
        ledger=ledger("T1", *mesa_1_facts()),
        rounds=[],
        house_edge=None,
        alerts=[],
        watermark={"T1": 412},
        previous_closer=previous,
    )
    check = report["custody"]["opener_check"]
    assert (check["difference"], check["matches"]) == (-100, False)
    assert mesa_1_report()["custody"]["opener_check"] is None


def test_records_of_another_table_are_refused() -> None:
    with pytest.raises(InvalidInputError) as refused:
        build_table_shift_report(
            context=context(),
            table=MESA_1,
            ledger=ledger("T4"),
            rounds=[],
            house_edge=None,
            alerts=[],
            watermark={"T1": 0},
        )
    assert refused.value.code == "report_mismatch"
    with pytest.raises(InvalidInputError):
        build_table_shift_report(
            context=context(),
            table=MESA_1,
            ledger=ledger("T1"),
            rounds=[],
            house_edge=None,
            alerts=[Alert("T2", "misdrawn_card", datetime(2026, 3, 10, 22, tzinfo=UTC), "x")],
            watermark={"T1": 0},
        )
