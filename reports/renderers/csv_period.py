"""The CSV of a period report: one row per table, per game and for the floor."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from reports.renderers.marking import status_text

Row = dict[str, Any]
PERIOD_COLUMNS = (
    "period",
    "first_day",
    "last_day",
    "report_status",
    "scope",
    "table",
    "name",
    "game",
    "tables",
    "shifts",
    "drop",
    "win",
    "hold_percent",
    "theoretical_win",
    "rake",
)


def period_rows(document: Mapping[str, Any]) -> Iterator[Row]:
    period = document["period"]
    base = {
        "period": document["kind"],
        "first_day": period["first_day"],
        "last_day": period["last_day"],
        "report_status": f"{status_text(document)}; version {document['version']}",
    }
    for row in document["tables"]:
        yield {**base, "scope": "table", **_columns(row)}
    for game, totals in document["by_game"].items():
        yield {**base, "scope": "game", "game": game, **_columns(totals)}
    yield {**base, "scope": "floor", **_columns(document["floor"])}


def _columns(values: Mapping[str, Any]) -> Row:
    return {key: value for key, value in values.items() if key in PERIOD_COLUMNS}
