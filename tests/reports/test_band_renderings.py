"""The table shift report's band (expected versus actual) in its CSV and PDF renderings, read
back: the CSV parsed, the PDF's text extracted, in every language."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from fractions import Fraction

import pypdf
import pytest

from reports.builders.document import Document
from reports.builders.table_shift import build_table_shift_report, report_rows
from reports.figures import band_document, no_band, shift_band
from reports.models import ReportRendering
from reports.renderers.as_csv import render_csv
from reports.renderers.as_pdf import render_pdf
from reports.renderers.csv_rows import BAND_SECTION
from reports.renderers.language import REPORT_LANGUAGES
from tests.reports.custody_floor import Floor
from tests.reports.report_samples import (
    MESA_1,
    MESA_1_ALERT,
    context,
    ledger,
    mesa_1_facts,
    mesa_1_report,
    mesa_1_rounds,
    stud_2_report,
)
from tests.reports.test_theoretical_win import play_shift_with_a_settings_change

# Mesa 1's theoretical win is 5.25 and its actual win -57. With sigma 25 the 95 % band is
# 5.25 ± 49.00 (the result lies outside it) and the 99 % band 5.25 ± 64.40 (inside).
BAND = shift_band(theoretical_win=Fraction(21, 4), result_variance=Fraction(625), actual_win=-57)
WORDS = {
    "es": ("Esperado frente a real", "Desviación típica", "Límite inferior", "FUERA", "dentro"),
    "pt-br": ("Esperado versus real", "Desvio padrão", "Limite inferior", "FORA", "dentro"),
    "en": ("Expected versus actual", "Standard deviation", "Lower edge", "OUTSIDE", "inside"),
}


def mesa_1_with_band() -> Document:
    return build_table_shift_report(
        context=context(),
        table=MESA_1,
        ledger=ledger("T1", *mesa_1_facts()),
        rounds=mesa_1_rounds(),
        house_edge=Fraction(3, 100),
        alerts=[MESA_1_ALERT],
        watermark={"T1": 412},
        report_rows=report_rows("siete_y_medio"),
        band=BAND,
    )


def band_rows(rendered: bytes) -> dict[str, dict[str, str]]:
    rows = csv.DictReader(io.StringIO(rendered.decode("utf-8")))
    return {row["item"]: row for row in rows if row["section"] == BAND_SECTION}


def pdf_text(rendered: bytes) -> str:
    reader = pypdf.PdfReader(io.BytesIO(rendered))
    return " ".join(page.extract_text() for page in reader.pages).replace("\n", " ")


def test_the_csv_carries_the_band_and_whether_the_result_lies_inside() -> None:
    rows = band_rows(render_csv(mesa_1_with_band()))
    assert rows["theoretical_win"]["amount"] == "5.25"
    assert rows["standard_deviation"]["amount"] == "25.00"
    assert rows["actual_win"]["amount"] == "-57"
    edges = {item: Decimal(row["amount"]) for item, row in rows.items() if "band_" in item}
    assert edges == {
        "band_95_low": Decimal("-43.75"),
        "band_95_high": Decimal("54.25"),
        "band_99_low": Decimal("-59.15"),
        "band_99_high": Decimal("69.65"),
    }
    assert rows["band_95_low"]["note"] == "z 1.959964; actual win outside"
    assert rows["band_99_high"]["note"] == "z 2.575829; actual win inside"


def test_a_raked_game_says_it_has_no_band_and_a_report_without_one_prints_none() -> None:
    stud = {**stud_2_report(), "expected_versus_actual": band_document(no_band())}
    rows = band_rows(render_csv(stud))
    assert list(rows) == ["basis"]
    assert rows["basis"]["note"] == "none_raked_game"
    raked = pdf_text(render_pdf(stud, "en"))
    assert "Expected versus actual" in raked
    assert "none: a raked game has no house edge" in raked
    assert band_rows(render_csv(mesa_1_report())) == {}
    assert "Standard deviation" not in pdf_text(render_pdf(mesa_1_report(), "en"))


@pytest.mark.parametrize("language", REPORT_LANGUAGES)
def test_the_pdf_prints_the_band_in_every_language(language: str) -> None:
    text = pdf_text(render_pdf(mesa_1_with_band(), language))
    for expected in ("5.25", "25.00", "-43.75", "54.25", "-59.15", "69.65", "95 %", "99 %"):
        assert expected in text, f"{expected!r} missing from the {language} band"
    for word in WORDS[language]:
        assert word in text, f"{word!r} missing from the {language} band"
    assert "house_edge_variance" not in text


@pytest.mark.django_db
def test_the_stored_renderings_of_a_played_shift_carry_its_band(floor: Floor) -> None:
    from reports.services.storing import produce_report

    key, _ = play_shift_with_a_settings_change(floor, rounds_each=2)
    report = produce_report("table_shift", key, table=floor.refresh())
    band = report.document["expected_versus_actual"]
    renderings = ReportRendering.objects.filter(report=report)
    stored = {row.format: bytes(row.content) for row in renderings}
    rows = band_rows(stored[ReportRendering.Format.CSV])
    assert rows["theoretical_win"]["amount"] == band["theoretical_win"]
    assert rows["band_99_low"]["amount"] == band["levels"][1]["low"]
    assert rows["band_99_high"]["amount"] == band["levels"][1]["high"]
    text = pdf_text(stored[ReportRendering.Format.PDF])
    assert band["levels"][0]["low"] in text
    assert band["standard_deviation"] in text
