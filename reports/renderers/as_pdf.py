"""The printable PDF, in one of the floor's languages: title, gaming day and shift in the
casino's local time, the report's tables, the PROVISIONAL or REPRINT marks on every page, and a
signature line for each person who signs, with their name and role printed under it.

Rendering is deterministic (ReportLab's invariant mode fixes the creation date and file id), so
the same document in the same language always gives the same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape

from django.utils import translation
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer, Table

from reports import kinds
from reports.builders.cashier import CAGE_FIGURES_MARK
from reports.builders.document import content_hash
from reports.renderers.labels import label, role_label
from reports.renderers.language import default_language, local_time, zone_name
from reports.renderers.pdf_layout import MARGIN, STYLES

CONTENT_TYPE = "application/pdf"


def render_pdf(document: Mapping[str, Any], language: str | None = None) -> bytes:
    with translation.override(language or default_language()):
        return _render(document)


def _render(document: Mapping[str, Any]) -> bytes:
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
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=20 * mm,
        bottomMargin=18 * mm,
    )
    sections = kinds.kind_for(document["kind"]).pdf_sections(document)
    story = [*_heading(document, title), *sections]
    story += _signature_block(document)
    story.append(Spacer(1, 4 * mm))
    digest = _("Document SHA-256: %(hash)s") % {"hash": content_hash(document)}
    story.append(Paragraph(escape(digest), STYLES["small"]))
    footer = f"{title} | {_period_text(document)}"
    marks = _page_marks_text(document)

    def decorate(canvas: Canvas, _template: Any) -> None:
        _page_marks(canvas, footer, marks)

    template.build(story, onFirstPage=decorate, onLaterPages=decorate)
    return buffer.getvalue()


def _title(document: Mapping[str, Any]) -> str:
    # The kind's title in the reader's language; a per-table kind names its table.
    title = label(document["kind"])
    if kinds.kind_for(document["kind"]).per_table:
        table = document["table"]
        title += f": {table['name']} ({table['id']}), {label(table['game'])}"
    return title


def _period_text(document: Mapping[str, Any]) -> str:
    if document.get("period"):
        period = document["period"]
        days = {"first": period["first_day"], "last": period["last_day"]}
        return _("%(first)s to %(last)s") % days
    return _("gaming day %(day)s, shift %(shift)s") % {
        "day": document["gaming_day"],
        "shift": document["shift"],
    }


def banners(document: Mapping[str, Any]) -> list[str]:
    """PROVISIONAL with its reasons, REPRINT with its version, in the active language."""
    found = []
    if document["provisional"]:
        reasons = ", ".join(label(reason) for reason in document["provisional_reasons"])
        found.append(_("PROVISIONAL: %(reasons)s") % {"reasons": reasons})
    if document["reprint"]:
        found.append(_("REPRINT (version %(version)s)") % {"version": document["version"]})
    return found


def _page_marks_text(document: Mapping[str, Any]) -> str:
    """The short words at the top of every page; the reasons are in the heading's banner."""
    words = []
    if document["provisional"]:
        words.append(_("PROVISIONAL"))
    if document["reprint"]:
        words.append(_("REPRINT (version %(version)s)") % {"version": document["version"]})
    return " / ".join(words)


def _heading(document: Mapping[str, Any], title: str) -> list[Flowable]:
    period = _period_text(document)
    lines: list[Flowable] = [Paragraph(escape(title), STYLES["title"])]
    when = _("%(period)s, ending %(end)s. Generated %(generated)s; version %(version)s.") % {
        "period": period[:1].upper() + period[1:],
        "end": local_time(document["shift_ends_at"], zone_named=True),
        "generated": local_time(document["generated_at"], zone_named=True),
        "version": document["version"],
    }
    lines.append(Paragraph(escape(when), STYLES["body"]))
    for banner in banners(document):
        lines.append(Paragraph(escape(banner), STYLES["banner"]))
    covered = ", ".join(_coverage(name, seq) for name, seq in document["watermark"].items())
    coverage = _("Covers: %(events)s. Times are local to %(zone)s.") % {
        "events": covered or _("no events"),
        "zone": zone_name(),
    }
    lines.append(Paragraph(escape(coverage), STYLES["small"]))
    lines.append(Spacer(1, 3 * mm))
    return lines


def _coverage(name: str, seq: int) -> str:
    if name == CAGE_FIGURES_MARK:
        return _("the cage's figures, version %(version)s") % {"version": seq}
    return _("%(table)s to event %(seq)s") % {"table": name, "seq": seq}


def _signature_block(document: Mapping[str, Any]) -> list[Flowable]:
    """A line to sign and a line for the date, the signer's name and role printed under them."""
    rows: list[list[str]] = []
    for signature in document["signatures"]:
        name = signature["name"] or _("(name)")
        rows.append(["_" * 40, "_" * 18])
        rows.append([f"{name}, {role_label(signature['role'])}", _("Date and time")])
    table = Table(rows, colWidths=(110 * mm, 60 * mm), hAlign="LEFT")
    style: list[tuple[Any, ...]] = [("FONT", (0, 0), (-1, -1), "Helvetica", 9)]
    style += [("TOPPADDING", (0, row), (-1, row), 18) for row in range(0, len(rows), 2)]
    style += [("TOPPADDING", (0, row), (-1, row), 0) for row in range(1, len(rows), 2)]
    table.setStyle(style)
    return [Spacer(1, 6 * mm), Paragraph(escape(_("Signatures")), STYLES["section"]), table]


def _page_marks(canvas: Canvas, footer: str, marks: str) -> None:
    width, height = A4
    canvas.saveState()
    canvas.setFont("Helvetica", 7)
    canvas.drawString(MARGIN, 10 * mm, footer)
    page = _("Page %(number)s") % {"number": canvas.getPageNumber()}
    canvas.drawRightString(width - MARGIN, 10 * mm, page)
    if marks:
        canvas.setFillColor(colors.red)
        canvas.setFont("Helvetica-Bold", 9)
        canvas.drawRightString(width - MARGIN, height - 12 * mm, marks)
    canvas.restoreState()
