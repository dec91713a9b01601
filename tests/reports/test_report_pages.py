"""Every page of every printed report, in every language, rasterised with pdftoppm and kept
under var/report-pages/ for a person to look at; red marks (PROVISIONAL, REPRINT) stay inside
the page's margins."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from pathlib import Path

import pypdf
import pytest
from django.conf import settings
from PIL import Image, ImageChops
from test_printed_reports import EXPECTED, LANGUAGES

from reports.renderers.as_pdf import render_pdf

PAGES_DIR = Path(settings.BASE_DIR) / "var" / "report-pages"
DPI = 72  # one pixel per point: the margins are 15 mm = 42.5 px


def pdftoppm() -> str:
    found = shutil.which("pdftoppm")
    if found is None:
        if os.environ.get("CI") or os.environ.get("REQUIRE_SERVICES"):
            pytest.fail("pdftoppm (poppler-utils) is required here; .ci/run installs it")
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    return found


def rasterise(pdf: bytes, stem: str) -> list[Path]:
    PAGES_DIR.mkdir(parents=True, exist_ok=True)
    for old in PAGES_DIR.glob(f"{stem}-*.png"):
        old.unlink()
    source = PAGES_DIR / f"{stem}.pdf"
    source.write_bytes(pdf)
    command = [pdftoppm(), "-r", str(DPI), "-png", str(source), str(PAGES_DIR / stem)]
    subprocess.run(command, check=True, timeout=60)
    return sorted(PAGES_DIR.glob(f"{stem}-*.png"))


def red_columns(page: Path) -> tuple[int, int] | None:
    """The leftmost and rightmost columns holding red ink (the page marks and banners)."""
    with Image.open(page) as image:
        red, green, blue = image.convert("RGB").split()
    mask = ImageChops.multiply(
        ImageChops.multiply(
            red.point(lambda value: 255 if value > 180 else 0),
            green.point(lambda value: 255 if value < 90 else 0),
        ),
        blue.point(lambda value: 255 if value < 90 else 0),
    )
    box = mask.getbbox()
    return (box[0], box[2] - 1) if box else None


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("report", list(EXPECTED))
def test_every_page_rasterises_and_keeps_its_marks_inside_the_margins(
    report: str, language: str
) -> None:
    pdf = render_pdf(EXPECTED[report][0](), language)
    pages = rasterise(pdf, f"{report}-{language}")
    assert len(pages) == len(pypdf.PdfReader(io.BytesIO(pdf)).pages)
    margin = 15 * 72 / 25.4
    for page in pages:
        with Image.open(page) as image:
            width, height = image.size
            assert (abs(width - 595), abs(height - 842)) <= (1, 1)  # A4, a pixel a point
            darkest = image.convert("L").getextrema()[0]
            assert isinstance(darkest, int)
            assert darkest < 100  # something is printed
        marks = red_columns(page)
        if report == "floor":  # the provisional one
            assert marks is not None
        if marks is not None:
            assert marks[0] >= margin - 2
            assert marks[1] <= width - margin + 2
