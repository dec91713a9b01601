"""The body of each report kind's PDF, as ReportLab flowables."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

Doc = Mapping[str, Any]

_SAMPLE = getSampleStyleSheet()
STYLES = {
    "title": _SAMPLE["Title"],
    "section": _SAMPLE["Heading2"],
    "body": _SAMPLE["BodyText"],
    "small": ParagraphStyle("small", parent=_SAMPLE["BodyText"], fontSize=7, leading=9),
    "cell": ParagraphStyle("cell", parent=_SAMPLE["BodyText"], fontSize=8, leading=10),
    "banner": ParagraphStyle(
        "banner",
        parent=_SAMPLE["Heading2"],
        textColor=colors.red,
        borderColor=colors.red,
        borderWidth=1,
        borderPadding=4,
    ),
}
_GRID = TableStyle(
    [
        ("FONT", (0, 0), (-1, -1), "Helvetica", 8),
        ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 8),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e6e6e6")),
        ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ]
)


def text(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


# ReportLab re-measures a long table on every page it splits over; tables of at most a page's
# rows, with widths computed once, keep a 50-page cage report linear in its length.
ROWS_PER_TABLE = 50
FRAME_WIDTH = 180 * mm
_CHAR_WIDTH = 4.4  # points per character of 8-point Helvetica, on average
_WIDEST_COLUMN_CHARS = 40


def grid(rows: Sequence[Sequence[Any]], widths: Sequence[float] | None = None) -> Table:
    capacity = [(width - 8) / _CHAR_WIDTH for width in widths] if widths else None
    cells = [
        [_cell(value, capacity[column] if capacity else 30) for column, value in enumerate(row)]
        for row in rows
    ]
    table = Table(cells, colWidths=widths, repeatRows=1, hAlign="LEFT")
    table.setStyle(_GRID)
    return table


def _cell(value: Any, capacity_chars: float) -> Any:
    rendered = text(value)
    # Text longer than its column wraps inside it instead of running into the next one.
    if len(rendered) > capacity_chars:
        return Paragraph(escape(rendered), STYLES["cell"])
    return rendered


def column_widths(rows: Sequence[Sequence[Any]]) -> list[float]:
    """Widths from each column's longest text, shrunk to the frame when they would not fit."""
    longest = [
        min(max(len(text(row[column])) for row in rows), _WIDEST_COLUMN_CHARS)
        for column in range(len(rows[0]))
    ]
    natural = [chars * _CHAR_WIDTH + 8 for chars in longest]
    scale = min(1.0, FRAME_WIDTH / sum(natural))
    return [width * scale for width in natural]


def section(title: str, rows: Sequence[Sequence[Any]], empty: str = "None.") -> list[Flowable]:
    heading = Paragraph(escape(title), STYLES["section"])
    if len(rows) <= 1:
        return [heading, Paragraph(empty, STYLES["body"])]
    header, body = rows[0], rows[1:]
    widths = column_widths(rows)
    tables: list[Flowable] = [
        grid([header, *body[start : start + ROWS_PER_TABLE]], widths)
        for start in range(0, len(body), ROWS_PER_TABLE)
    ]
    return [heading, *tables]


def number_ranges(numbers: Iterable[int]) -> str:
    """``1001-1003, 1005`` for a list of slip numbers."""
    ranges: list[list[int]] = []
    for number in sorted(numbers):
        if ranges and number == ranges[-1][1] + 1:
            ranges[-1][1] = number
        else:
            ranges.append([number, number])
    parts = [str(a) if a == b else f"{a}-{b}" for a, b in ranges]
    return ", ".join(parts) or "none"


def _chips_text(chips: Mapping[str, int]) -> str:
    return ", ".join(f"{count} x {value}" for value, count in chips.items()) or "-"


def table_shift_sections(document: Doc) -> list[Flowable]:
    custody, figures, rounds = document["custody"], document["figures"], document["rounds"]
    opener, closer = custody["opener"] or {}, custody["closer"] or {}
    carried = " (carried over)" if opener.get("carried_over") else ""
    counted = custody["counted_drop"]
    custody_rows: list[list[Any]] = [
        ["Item", "Amount", "Signed by"],
        ["Opener" + carried, opener.get("total"), _pair(opener, "dealer", "pit_boss")],
        ["Fills", custody["fills_total"], ""],
        ["Credits", custody["credits_total"], ""],
        ["Closer", closer.get("total"), _pair(closer, "dealer", "pit_boss")],
        [f"Buy-ins ({custody['buy_ins']['count']})", custody["buy_ins"]["total"], ""],
        ["Counted drop", counted and counted["amount"], counted and counted["counted_by"]],
    ]
    check = custody["opener_check"]
    if check:
        verdict = "matches" if check["matches"] else "DIFFERS"
        custody_rows.insert(2, ["Opener less previous closer", check["difference"], verdict])
    figure_rows = [["Figure", "Value"]] + [
        [name.replace("_", " ").capitalize(), figures[name]] for name in figures
    ]
    return [
        *section("Custody", custody_rows),
        *section("Chips by denomination", _denomination_rows(opener, closer)),
        *section("Fills", _slip_rows(custody["fills"])),
        *section("Credits", _slip_rows(custody["credits"])),
        *section("Figures", figure_rows),
        *section("Rounds", _round_rows(rounds)),
        *section(
            "Alerts",
            [["Raised at", "Kind", "Round", "Message"]]
            + [[a["raised_at"], a["kind"], a["round"], a["message"]] for a in document["alerts"]],
        ),
    ]


def _pair(inventory: Mapping[str, Any], first: str, second: str) -> str:
    if not inventory:
        return "-"
    return f"{inventory[first]}, {inventory[second]}"


def _denomination_rows(opener: Mapping[str, Any], closer: Mapping[str, Any]) -> list[list[Any]]:
    values = sorted({*opener.get("chips", {}), *closer.get("chips", {})}, key=int)
    rows: list[list[Any]] = [["Denomination", "Opener", "Closer"]]
    for value in values:
        rows.append(
            [value, opener.get("chips", {}).get(value, 0), closer.get("chips", {}).get(value, 0)]
        )
    return rows


def _slip_rows(slips: Sequence[Mapping[str, Any]]) -> list[list[Any]]:
    rows: list[list[Any]] = [
        ["Slip", "Total", "Chips", "Requested by", "Cashier", "Confirmed by", "Status"]
    ]
    for slip in slips:
        void = slip["void"]
        status = f"VOID: {void['reason']} (approved by {void['approved_by']})" if void else "valid"
        rows.append(
            [
                slip["slip_number"],
                slip["total"],
                _chips_text(slip["chips"]),
                slip["requested_by"],
                slip["cashier"],
                slip["confirmed_by"],
                status,
            ]
        )
    return rows


def _round_rows(rounds: Mapping[str, Any]) -> list[list[Any]]:
    rows: list[list[Any]] = [["Figure", "Count", "Amount"]]
    for name in ("hands_played", "rounds_voided", "boxes_played", "pushes", "busts"):
        rows.append([name.replace("_", " ").capitalize(), rounds[name], ""])
    rows.append(["Handle", "", rounds["handle"]])
    for name, total in rounds["payouts_by_class"].items():
        rows.append([f"Paid: {name.replace('_', ' ')}", total["count"], total["amount"]])
    rows.append(["Payouts total", "", rounds["payouts_total"]])
    rows.append(["Breakage", "", rounds["breakage"]])
    for pot in rounds["rake_by_pot"]:
        rows.append([f"Rake: {pot['pot']} pot", "", pot["rake"]])
    rows.append(["Rake total", "", rounds["rake_total"]])
    return rows


FLOOR_FIGURES = ("drop", "win", "hold_percent", "revenue", "fills", "credits", "handle")


def floor_summary_sections(document: Doc) -> list[Flowable]:
    header = ["Table", "Game", "Drop", "Win", "Hold %", "Revenue", "Fills", "Credits", "Handle"]
    table_rows = [header] + [
        [f"{row['table']}{' (prov.)' if row['provisional'] else ''}", row["game"]]
        + [row[name] for name in FLOOR_FIGURES]
        for row in document["tables"]
    ]
    total_rows = [["Scope", "Tables", *header[2:]]]
    for scope, totals in [*document["by_game"].items(), ("whole floor", document["floor"])]:
        total_rows.append([scope, totals["tables"], *(totals[name] for name in FLOOR_FIGURES)])
    return [*section("Tables", table_rows), *section("Totals", total_rows)]


def cashier_sections(document: Doc) -> list[Flowable]:
    flowables: list[Flowable] = []
    for slip_type, label in (("fill", "Fills"), ("credit", "Credits")):
        rows: list[list[Any]] = [["Slip", "Table", "Chips", "Total", "Status", "Signed by"]]
        for slip in document["slips"][slip_type]:
            signers = ", ".join(
                str(slip[key]) for key in ("requested_by", "cashier", "confirmed_by") if slip[key]
            )
            rows.append(
                [
                    slip["slip_number"],
                    slip["table"] or "cage",
                    _chips_text(slip["chips"]),
                    slip["total"],
                    _cage_slip_status(slip),
                    signers,
                ]
            )
        flowables += section(label, rows)
    flowables += section("By table and denomination", _by_table_rows(document))
    flowables += section("Slip sequence", _sequence_rows(document))
    flowables += section("Totals and over/short", _over_short_rows(document))
    return flowables


def _cage_slip_status(slip: Mapping[str, Any]) -> str:
    if slip["status"] == "void":
        at_step = f" when {slip['stage']}" if slip["stage"] not in ("confirmed", None) else ""
        return "VOID" + at_step + (f": {slip['void_reason']}" if slip["void_reason"] else "")
    if slip["status"] == "used":
        return "used"
    return f"OUTSTANDING ({slip['status']})"


def _by_table_rows(document: Doc) -> list[list[Any]]:
    rows: list[list[Any]] = [["Type", "Table", "Denomination", "Count", "Amount"]]
    for row in document["by_table_and_denomination"]:
        rows.append(
            [row["slip_type"], row["table"], row["denomination"], row["count"], row["amount"]]
        )
    return rows


def _sequence_rows(document: Doc) -> list[list[Any]]:
    """One row per few ranges, so that a long list of numbers still splits across pages."""
    rows: list[list[Any]] = [["Type", "Numbers", "Count", "Slip numbers"]]
    labels = {
        "issued": "issued",
        "used": "used",
        "voided": "voided",
        "outstanding": "OUTSTANDING",
        "missing": "MISSING",
        "not_issued": "NOT ISSUED",
        "duplicates": "USED TWICE",
    }
    for slip_type, sequence in document["sequence"].items():
        for key, label in labels.items():
            numbers = sequence[key]
            for index, chunk in enumerate(range_chunks(numbers)):
                first = index == 0
                rows.append(
                    [
                        slip_type if first else "",
                        label if first else "",
                        len(numbers) if first else "",
                        chunk,
                    ]
                )
    return rows


def range_chunks(numbers: Sequence[int], per_row: int = 8) -> list[str]:
    parts = number_ranges(numbers).split(", ")
    return [", ".join(parts[i : i + per_row]) for i in range(0, len(parts), per_row)]


def _over_short_rows(document: Doc) -> list[list[Any]]:
    rows: list[list[Any]] = [
        ["Type", "Slips", "Void", "Outstanding", "Total", "Cage signed", "Cage", "Over/short"]
    ]
    for slip_type in ("fill", "credit"):
        totals, over_short = document["totals"][slip_type], document["over_short"][slip_type]
        entered = over_short["status"] != "not_entered"
        rows.append(
            [
                slip_type,
                totals["slips"],
                totals["voided"],
                totals["outstanding"]["slips"],
                totals["amount"],
                over_short["computed"],
                over_short["cage"] if entered else "not entered",
                f"{over_short['difference']} {over_short['status']}" if entered else "",
            ]
        )
    rows.append(["net to tables", "", "", "", document["totals"]["net_to_tables"], "", "", ""])
    return rows
