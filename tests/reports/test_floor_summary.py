from datetime import UTC, datetime

import pytest
from report_samples import (
    context,
    mesa_1_facts,
    mesa_1_report,
    mesa_3_report,
    mesa_4_report,
    stud_2_report,
)

from reports.builders.document import Document, ReportContext
from reports.builders.floor_summary import build_floor_summary
from tables.engine.errors import InvalidInputError, NotAllowedNowError


def floor_tables() -> list[Document]:
    return [mesa_4_report(), stud_2_report(), mesa_1_report(), mesa_3_report()]


def test_the_floor_totals_each_game_by_hand() -> None:
    summary = build_floor_summary(context=context(), table_reports=floor_tables())
    siete = summary["by_game"]["siete_y_medio"]
    # Drop 2400 + 0 + 200; win 735 + 0 - 1100; hold -365 / 2600 = -14.038 %.
    assert siete["tables"] == 3
    assert (siete["drop"], siete["win"], siete["hold_percent"]) == (2600, -365, "-14.04")
    assert (siete["fills"], siete["credits"], siete["estimated_drop"]) == (2000, 500, 2450)
    assert siete["theoretical_win"] == "5.25"  # Mesa 1's 5.25; Mesa 3 and 4 had no rounds
    stud = summary["by_game"]["seven_card_stud"]
    assert (stud["tables"], stud["drop"], stud["revenue"], stud["rake"]) == (1, 400, 6, 6)
    assert stud["hold_percent"] is None


def test_the_floor_total_adds_both_games() -> None:
    floor = build_floor_summary(context=context(), table_reports=floor_tables())["floor"]
    assert floor["tables"] == 4
    assert floor["drop"] == 3000
    assert floor["win"] == -365
    assert floor["hold_percent"] == "-14.04"  # the stud drop earns no hold
    assert floor["revenue"] == -359  # -365 + 6 of rake
    assert floor["handle"] == 175 + 126
    assert floor["hands_played"] == 2 + 3
    assert floor["win_complete"] is True


def test_the_floor_lists_tables_in_order_with_the_merged_watermark() -> None:
    summary = build_floor_summary(
        context=context(), table_reports=floor_tables(), shift_manager="sofia"
    )
    assert [row["table"] for row in summary["tables"]] == ["T1", "T2", "T3", "T4"]
    assert summary["watermark"] == {"T1": 412, "T2": 97, "T3": 2, "T4": 30}
    assert summary["signatures"] == [{"role": "shift_manager", "name": "sofia"}]
    assert summary["provisional"] is False


def test_a_provisional_table_makes_the_floor_provisional() -> None:
    open_table = mesa_1_report(facts=mesa_1_facts()[:8])
    summary = build_floor_summary(context=context(), table_reports=[open_table, mesa_3_report()])
    assert summary["provisional_reasons"] == ["table_provisional:T1"]
    assert summary["floor"]["win_complete"] is False
    with pytest.raises(NotAllowedNowError):
        build_floor_summary(context=context(), table_reports=[open_table], allow_provisional=False)


def test_an_empty_floor_still_reports() -> None:
    summary = build_floor_summary(context=context(), table_reports=[])
    assert summary["floor"]["tables"] == 0
    assert summary["floor"]["hold_percent"] is None


def test_a_table_report_of_another_shift_is_refused() -> None:
    other_day = ReportContext(
        gaming_day=datetime(2026, 3, 9).date(),
        shift="night",
        generated_at=datetime(2026, 3, 11, 6, tzinfo=UTC),
        shift_ends_at=datetime(2026, 3, 10, 5, tzinfo=UTC),
    )
    with pytest.raises(InvalidInputError) as refused:
        build_floor_summary(context=other_day, table_reports=floor_tables())
    assert refused.value.code == "report_mismatch"


def test_the_same_table_twice_is_refused() -> None:
    with pytest.raises(InvalidInputError) as refused:
        build_floor_summary(context=context(), table_reports=[mesa_3_report(), mesa_3_report()])
    assert refused.value.code == "report_mismatch"
