"""Styles, and tables whose columns fit what they hold, for every report's PDF.

Column widths come from the printed width of each cell's text in its own font (not a
character-count guess), so a header is never clipped and a number never runs into the next
cell. When the natural widths do not fit the page, every column keeps at least its longest
word and the rest of the page goes to the columns that wrap.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

from django.utils.translation import gettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

from reports.renderers.labels import yes_no

_SAMPLE = getSampleStyleSheet()
FONT, BOLD, FONT_SIZE = "Helvetica", "Helvetica-Bold", 8
STYLES = {
    "title": _SAMPLE["Title"],
    # A section's heading stays on the page of its table.
    "section": ParagraphStyle("section", parent=_SAMPLE["Heading2"], keepWithNext=1),
    "body": _SAMPLE["BodyText"],
    "small": ParagraphStyle("small", parent=_SAMPLE["BodyText"], fontSize=7, leading=9),
    "cell": ParagraphStyle("cell", parent=_SAMPLE["BodyText"], fontSize=FONT_SIZE, leading=10),
    "head": ParagraphStyle(
        "head", parent=_SAMPLE["BodyText"], fontName=BOLD, fontSize=FONT_SIZE, leading=10
    ),
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
        ("FONT", (0, 0), (-1, -1), FONT, FONT_SIZE),
        ("FONT", (0, 0), (-1, 0), BOLD, FONT_SIZE),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e6e6e6")),
        ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ]
)
MARGIN = 15 * mm
FRAME_WIDTH = A4[0] - 2 * MARGIN
_PADDING = 6 * 2 + 1  # ReportLab's cell padding, left and right, and a point to spare
# ReportLab re-measures a long table on every page it splits over; tables of at most a page's
# rows, with widths computed once, keep a 50-page cage report linear in its length.
ROWS_PER_TABLE = 50


def text(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return yes_no(value)
    return str(value)


def _width(value: str, font: str) -> float:
    return float(stringWidth(value, font, FONT_SIZE))


def _longest_word(value: str, font: str) -> float:
    return max((_width(word, font) for word in value.split()), default=0.0)


def fitted_widths(rows: Sequence[Sequence[Any]], frame_width: float = FRAME_WIDTH) -> list[float]:
    """Each column as wide as its widest text when the page allows. Otherwise the columns
    narrower than a fair share keep their width, and the page's remaining width is shared by
    the wide ones (those that wrap), each keeping at least its longest word."""
    fonts = [BOLD] + [FONT] * (len(rows) - 1)
    cells = [
        [(text(row[c]), font) for row, font in zip(rows, fonts, strict=True)]
        for c in range(len(rows[0]))
    ]
    natural = [max(_width(value, font) for value, font in column) + _PADDING for column in cells]
    if sum(natural) <= frame_width:
        return natural
    least = [
        max(_longest_word(value, font) for value, font in column) + _PADDING for column in cells
    ]
    widths, wide, remaining = list(natural), set(range(len(natural))), frame_width
    while wide:
        share = remaining / len(wide)
        narrow = {c for c in wide if natural[c] <= share}
        if not narrow:
            break
        wide -= narrow
        remaining -= sum(natural[c] for c in narrow)
    for c in wide:
        widths[c] = max(least[c], remaining * natural[c] / sum(natural[w] for w in wide))
    if sum(widths) > frame_width:
        return [width * frame_width / sum(widths) for width in widths]
    return widths


def grid(rows: Sequence[Sequence[Any]], widths: Sequence[float] | None = None) -> Table:
    widths = list(widths) if widths is not None else fitted_widths(rows)
    cells = [
        [
            _cell(value, widths[column], STYLES["head"] if index == 0 else STYLES["cell"])
            for column, value in enumerate(row)
        ]
        for index, row in enumerate(rows)
    ]
    table = Table(cells, colWidths=widths, repeatRows=1, hAlign="LEFT")
    table.setStyle(_GRID)
    return table


def _cell(value: Any, width: float, style: ParagraphStyle) -> Any:
    rendered = text(value)
    # Text wider than its column wraps inside it instead of running into the next one.
    if _width(rendered, style.fontName) + _PADDING > width:
        return Paragraph(escape(rendered), style)
    return rendered


def section(title: str, rows: Sequence[Sequence[Any]], empty: str | None = None) -> list[Flowable]:
    heading = Paragraph(escape(title), STYLES["section"])
    if len(rows) <= 1:
        return [heading, Paragraph(escape(empty or gettext("None.")), STYLES["body"])]
    header, body = rows[0], rows[1:]
    widths = fitted_widths(rows)
    tables: list[Flowable] = [
        grid([header, *body[start : start + ROWS_PER_TABLE]], widths)
        for start in range(0, len(body), ROWS_PER_TABLE)
    ]
    return [heading, *tables]
