"""The CSV rendering: one flat table per report kind (its columns and rows: reports.kinds).

The table shift, cashier and audit reports are long tables (one line item per row, a ``section``
column saying what the row is); the floor summary is a wide table, one row per table, game and
floor. Each starts with a ``report`` row (or column) saying whether it is final, so a copy pasted
into a spreadsheet keeps its PROVISIONAL or REPRINT mark.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from reports import kinds

CONTENT_TYPE = "text/csv"

Row = dict[str, Any]


def render_csv(document: Mapping[str, Any]) -> bytes:
    """UTF-8 CSV with a header row; empty cells for values that do not apply."""
    kind = kinds.kind_for(document["kind"])
    columns, rows = kind.csv_columns, kind.csv_rows
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, restval="", extrasaction="raise")
    writer.writeheader()
    for row in rows(document):
        writer.writerow({key: _cell(value) for key, value in row.items()})
    return buffer.getvalue().encode("utf-8")


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | Decimal):
        return str(value)
    return escape_formula(str(value))


# A spreadsheet runs a cell starting with one of these as a formula: text that starts so (a
# player's name, a reason typed at the table) is kept as text by a leading apostrophe.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"-?\d+(\.\d+)?%?")


def escape_formula(text: str) -> str:
    if text.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text
