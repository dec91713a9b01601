"""Each stored report's renderings: JSON, CSV, and a PDF per language, each stored once with the
SHA-256 of its own bytes.

JSON and CSV carry the document's codes and no words, so they have one rendering each (language
``""``); a PDF is printed in each of the floor's languages. The floor's default language is
rendered with the report; another language is rendered the first time it is asked for and
stored then. Rendering is deterministic, so it does not matter which request stores it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction

from reports.models import Report, ReportRendering
from reports.renderers.as_csv import render_csv
from reports.renderers.as_json import render_json
from reports.renderers.as_pdf import render_pdf
from reports.renderers.language import default_language

NEUTRAL = ""
FORMATS = ("json", "csv", "pdf")


def rendering_language(fmt: str, language: str) -> str:
    return language if fmt == ReportRendering.Format.PDF else NEUTRAL


def render(document: Mapping[str, Any], fmt: str, language: str) -> bytes:
    if fmt == ReportRendering.Format.JSON:
        return render_json(document)
    if fmt == ReportRendering.Format.CSV:
        return render_csv(document)
    return render_pdf(document, language)


def render_for_storing(document: Mapping[str, Any]) -> dict[str, bytes]:
    """The renderings stored with the report: JSON, CSV and the PDF in the default language."""
    language = default_language()
    return {fmt: render(document, fmt, language) for fmt in FORMATS}


def store_renderings(report: Report, rendered: Mapping[str, bytes]) -> None:
    """Inside the report's own transaction."""
    language = default_language()
    for fmt, content in rendered.items():
        ReportRendering.objects.create(
            report=report,
            format=fmt,
            language=rendering_language(fmt, language),
            sha256=hashlib.sha256(content).hexdigest(),
            content=content,
        )


def rendering_of(report: Report, fmt: str, language: str) -> ReportRendering:
    """The stored rendering, rendered and stored now if this format and language are new."""
    language = rendering_language(fmt, language)
    stored = ReportRendering.objects.filter(report=report, format=fmt, language=language).first()
    if stored is not None:
        return stored
    content = render(report.document, fmt, language)
    try:
        with transaction.atomic():
            return ReportRendering.objects.create(
                report=report,
                format=fmt,
                language=language,
                sha256=hashlib.sha256(content).hexdigest(),
                content=content,
            )
    except IntegrityError:
        # A parallel download stored the same bytes first.
        return ReportRendering.objects.get(report=report, format=fmt, language=language)
