"""The printable PDF: title, gaming day and shift, the report's tables, the PROVISIONAL or
REPRINT banner on every page, and signature lines for the people who must sign.

Rendering is deterministic (ReportLab's invariant mode fixes the creation date and file id), so
the same document always gives the same bytes and a re-render can be checked byte for byte.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer

from reports import kinds
from reports.builders.document import content_hash
from reports.renderers.marking import markings
from reports.renderers.pdf_sections import STYLES, grid

CONTENT_TYPE = "application/pdf"

ROLE_NAMES = {
    "dealer": "Dealer",
    "pit_boss": "Pit boss",
    "cashier": "Cashier",
    "cage_supervisor": "Cage supervisor",
    "auditor": "Auditor",
    "shift_manager": "Shift manager",
}


def render_pdf(document: Mapping[str, Any]) -> bytes:
    buffer = io.BytesIO()
    title = _title(document)
    template = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        invariant=1,
        title=title,
        subject=f"{document['kind']} {document['gaming_day']} {document['shift']}",
        author="",
        creator="casino-tables reports",
        leftMargin=15 * mm,
        rightMargin=15 * mm,
        topMargin=20 * mm,
        bottomMargin=18 * mm,
    )
    sections = kinds.kind_for(document["kind"]).pdf_sections(document)
    story = [*_heading(document, title), *sections]
    story += _signature_block(document)
    story.append(Spacer(1, 4 * mm))
    story.append(Paragraph(f"Document SHA-256: {content_hash(document)}", STYLES["small"]))

    def decorate(canvas: Canvas, _template: Any) -> None:
        _page_marks(canvas, document, title)

    template.build(story, onFirstPage=decorate, onLaterPages=decorate)
    return buffer.getvalue()


def _title(document: Mapping[str, Any]) -> str:
    kind = kinds.kind_for(document["kind"])
    title = kind.title
    if kind.per_table:
        table = document["table"]
        title += f": {table['name']} ({table['id']})"
    return title


def _heading(document: Mapping[str, Any], title: str) -> list[Flowable]:
    lines: list[Flowable] = [Paragraph(escape(title), STYLES["title"])]
    lines.append(
        Paragraph(
            escape(
                f"Gaming day {document['gaming_day']}, shift {document['shift']}. "
                f"Generated {document['generated_at']}; version {document['version']}."
            ),
            STYLES["body"],
        )
    )
    for banner in markings(document):
        lines.append(Paragraph(escape(banner), STYLES["banner"]))
    watermark = ", ".join(f"{table} to seq {seq}" for table, seq in document["watermark"].items())
    lines.append(Paragraph(escape(f"Covers events: {watermark or 'none'}."), STYLES["small"]))
    lines.append(Spacer(1, 3 * mm))
    return lines


def _signature_block(document: Mapping[str, Any]) -> list[Flowable]:
    rows = [["Role", "Name", "Signature", "Date"]]
    for signature in document["signatures"]:
        role = ROLE_NAMES.get(signature["role"], signature["role"])
        rows.append([role, signature["name"] or "", "_" * 28, "_" * 14])
    table = grid(rows, widths=(35 * mm, 45 * mm, 65 * mm, 35 * mm))
    table.setStyle([("TOPPADDING", (0, 1), (-1, -1), 10)])
    return [Spacer(1, 6 * mm), Paragraph("Signatures", STYLES["section"]), table]


def _page_marks(canvas: Canvas, document: Mapping[str, Any], title: str) -> None:
    width, height = A4
    canvas.saveState()
    canvas.setFont("Helvetica", 7)
    canvas.drawString(15 * mm, 10 * mm, f"{title} | {document['gaming_day']} {document['shift']}")
    canvas.drawRightString(width - 15 * mm, 10 * mm, f"Page {canvas.getPageNumber()}")
    banners = markings(document)
    if banners:
        canvas.setFillColor(colors.red)
        canvas.setFont("Helvetica-Bold", 9)
        canvas.drawRightString(width - 15 * mm, height - 12 * mm, " / ".join(banners))
    canvas.restoreState()
