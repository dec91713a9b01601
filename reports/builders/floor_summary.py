"""The floor summary: the shift's table reports added up by game and for the whole floor."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from reports.builders.cashier import most_common
from reports.builders.document import Document, ReportContext, json_ready, report_header
from reports.figures import hold_percent
from tables import games
from tables.engine.errors import InvalidInputError

SUMMED_FIGURES = ("drop", "estimated_drop", "revenue", "actual_win")


def build_floor_summary(
    *,
    context: ReportContext,
    table_reports: Sequence[Mapping[str, Any]],
    shift_manager: str | None = None,
    allow_provisional: bool = True,
) -> Document:
    """Totals of already-built table shift reports of the same gaming day and shift."""
    _verify_same_shift(context, table_reports)
    rows = [_table_row(report) for report in sorted(table_reports, key=_table_id)]
    watermark: dict[str, int] = {}
    for report in table_reports:
        watermark.update(report["watermark"])
    header = report_header(
        "floor_summary",
        context,
        watermark=watermark,
        provisional_reasons=[
            f"table_provisional:{row['table']}" for row in rows if row["provisional"]
        ],
        signatures=(
            (("shift_manager", shift_manager),)
            if shift_manager
            else (("pit_boss", _pit_boss_of(table_reports)),)
        ),
        allow_provisional=allow_provisional,
    )
    document = {
        **header,
        "tables": rows,
        "by_game": {
            game: _totals([row for row in rows if row["game"] == game]) for game in _games_of(rows)
        },
        "floor": _totals(rows),
    }
    ready: Document = json_ready(document)
    return ready


def _games_of(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every game the floor plays (each with its totals, zero where no table played it), and
    any other a table's report names."""
    return list(dict.fromkeys([*games.known_keys(), *(row["game"] for row in rows)]))


def _pit_boss_of(reports: Sequence[Mapping[str, Any]]) -> str | None:
    """The pit boss who signed most of the tables' reports signs the floor's."""
    return most_common(
        signature["name"]
        for report in reports
        for signature in report["signatures"]
        if signature["role"] == "pit_boss"
    )


def _verify_same_shift(context: ReportContext, reports: Sequence[Mapping[str, Any]]) -> None:
    for report in reports:
        same = (report["gaming_day"], report["shift"]) == (
            context.gaming_day.isoformat(),
            context.shift,
        )
        if report["kind"] != "table_shift" or not same:
            raise InvalidInputError(
                "The floor summary takes the table shift reports of its own gaming day and shift.",
                code="report_mismatch",
            )
    tables = [_table_id(report) for report in reports]
    if len(set(tables)) != len(tables):
        raise InvalidInputError(
            "Each table's shift report may appear only once in the floor summary.",
            code="report_mismatch",
        )


def _table_id(report: Mapping[str, Any]) -> str:
    table_id: str = report["table"]["id"]
    return table_id


def _table_row(report: Mapping[str, Any]) -> dict[str, Any]:
    figures, custody, rounds = report["figures"], report["custody"], report["rounds"]
    return {
        "table": report["table"]["id"],
        "name": report["table"]["name"],
        "game": report["table"]["game"],
        "provisional": report["provisional"],
        **{name: figures[name] for name in SUMMED_FIGURES},
        "fills": custody["fills_total"],
        "credits": custody["credits_total"],
        "win": figures["win"],
        "hold_percent": figures["hold_percent"],
        "handle": rounds["handle"],
        "hands_played": rounds["hands_played"],
        "rake": rounds["rake_total"],
        "theoretical_win": figures["theoretical_win"],
    }


def _totals(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    banked = [row for row in rows if games.house_banks(row["game"])]
    with_win = [row for row in banked if row["win"] is not None]
    win = sum(row["win"] for row in with_win)
    banked_drop = sum(row["drop"] for row in with_win)
    theoretical = [Decimal(row["theoretical_win"]) for row in rows if row["theoretical_win"]]
    return {
        "tables": len(rows),
        **{name: _known_sum(rows, name) for name in SUMMED_FIGURES},
        "fills": sum(row["fills"] for row in rows),
        "credits": sum(row["credits"] for row in rows),
        "win": win,
        "win_complete": len(with_win) == len(banked),
        "hold_percent": hold_percent(win, banked_drop),
        "handle": sum(row["handle"] for row in rows),
        "hands_played": sum(row["hands_played"] for row in rows),
        "rake": sum(row["rake"] for row in rows),
        "theoretical_win": sum(theoretical, Decimal("0.00")) if theoretical else None,
    }


def _known_sum(rows: Sequence[Mapping[str, Any]], name: str) -> int:
    """Sum of the known values; an open table's missing revenue shows as ``win_complete``."""
    return sum(row[name] for row in rows if row[name] is not None)
