"""Period reports: the gaming day, the month to date and the year to date, by table and by game
(drop, win, hold %, theoretical win, rake), added up from the tables' shift reports."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from reports.builders.cashier import most_common
from reports.builders.document import Document, ReportContext, json_ready, report_header
from reports.figures import hold_percent
from tables import games
from tables.engine.errors import InvalidInputError

GAMING_DAY, MONTH_TO_DATE, YEAR_TO_DATE = "gaming_day", "month_to_date", "year_to_date"
PERIOD_KINDS = (GAMING_DAY, MONTH_TO_DATE, YEAR_TO_DATE)


def period_first_day(kind: str, last_day: date) -> date:
    """The first gaming day a period report of ``kind`` ending on ``last_day`` covers."""
    if kind == GAMING_DAY:
        return last_day
    if kind == MONTH_TO_DATE:
        return last_day.replace(day=1)
    if kind == YEAR_TO_DATE:
        return last_day.replace(month=1, day=1)
    raise InvalidInputError(f"There is no period report called {kind!r}.", code="unknown_report")


def build_period_report(
    *,
    kind: str,
    context: ReportContext,
    table_reports: Sequence[Mapping[str, Any]],
    auditor: str | None = None,
    allow_provisional: bool = True,
) -> Document:
    """``table_reports``: one table shift document per table and shift of the period (each the
    latest version); ``context.shift_ends_at`` is the end of the period's last gaming day."""
    first_day = period_first_day(kind, context.gaming_day)
    _verify_in_period(first_day, context.gaming_day, table_reports)
    rows = _table_rows(table_reports)
    watermark: dict[str, int] = {}
    for report in table_reports:
        for table, seq in report["watermark"].items():
            watermark[table] = max(seq, watermark.get(table, 0))
    header = report_header(
        kind,
        context,
        watermark=watermark,
        provisional_reasons=[f"table_provisional:{row['table']}" for row in rows if row["open"]],
        signatures=(("pit_boss", _pit_boss_of(table_reports)), ("auditor", auditor)),
        allow_provisional=allow_provisional,
        clock_reason="period_not_ended",
    )
    games = sorted({row["game"] for row in rows})
    document = {
        **header,
        "period": {
            "first_day": first_day,
            "last_day": context.gaming_day,
            "shift_reports": len(table_reports),
        },
        "tables": rows,
        "by_game": {game: _totals([r for r in rows if r["game"] == game]) for game in games},
        "floor": _totals(rows),
    }
    ready: Document = json_ready(document)
    return ready


def _pit_boss_of(reports: Sequence[Mapping[str, Any]]) -> str | None:
    return most_common(
        signature["name"]
        for report in reports
        for signature in report["signatures"]
        if signature["role"] == "pit_boss"
    )


def _verify_in_period(first: date, last: date, reports: Sequence[Mapping[str, Any]]) -> None:
    seen = set()
    for report in reports:
        day = date.fromisoformat(report["gaming_day"])
        key = (report["table"]["id"], report["gaming_day"], report["shift"])
        if report["kind"] != "table_shift" or not first <= day <= last or key in seen:
            raise InvalidInputError(
                "A period report takes each table shift report of its period once.",
                code="report_mismatch",
            )
        seen.add(key)


def _table_rows(reports: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    by_table: dict[str, list[Mapping[str, Any]]] = {}
    for report in reports:
        by_table.setdefault(report["table"]["id"], []).append(report)
    return [_table_row(shifts) for _, shifts in sorted(by_table.items())]


def _table_row(shifts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    table = shifts[-1]["table"]
    banked = games.house_banks(table["game"])
    known = [report["figures"] for report in shifts if report["figures"]["win"] is not None]
    win = sum(figures["win"] for figures in known) if banked and known else None
    win_drop = sum(figures["drop"] for figures in known) if win is not None else 0
    return {
        "table": table["id"],
        "name": table["name"],
        "game": table["game"],
        "shifts": len(shifts),
        "open": any(report["provisional"] for report in shifts),
        "drop": sum(report["figures"]["drop"] for report in shifts),
        "win": win,
        "win_drop": win_drop,
        "hold_percent": hold_percent(win, win_drop) if win is not None else None,
        "theoretical_win": _sum_decimals(r["figures"]["theoretical_win"] for r in shifts),
        "rake": sum(report["rounds"]["rake_total"] for report in shifts),
    }


def _totals(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A game's or the floor's hold is its known win over the drop of the same tables."""
    with_win = [row for row in rows if row["win"] is not None]
    win = sum(row["win"] for row in with_win)
    win_drop = sum(row["win_drop"] for row in with_win)
    return {
        "tables": len(rows),
        "shifts": sum(row["shifts"] for row in rows),
        "drop": sum(row["drop"] for row in rows),
        "win": win if with_win else None,
        "hold_percent": hold_percent(win, win_drop) if with_win else None,
        "theoretical_win": _sum_decimals(row["theoretical_win"] for row in rows),
        "rake": sum(row["rake"] for row in rows),
    }


def _sum_decimals(values: Iterable[Any]) -> Decimal | None:
    known = [Decimal(str(value)) for value in values if value is not None]
    return sum(known, Decimal("0.00")) if known else None
