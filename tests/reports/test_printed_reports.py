"""Every printed report in every language: its figures, its words, its people, its local times,
no machine code printed as a word, the table's own game only, and columns that fit."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from xml.sax.saxutils import unescape

import pypdf
import pytest
from report_samples import (
    context,
    ledger,
    mesa_1_facts,
    mesa_1_report,
    mesa_3_facts,
    mesa_3_report,
    mesa_4_facts,
    mesa_4_report,
    stud_2_report,
    troubled_audit,
)
from reportlab.pdfbase.pdfmetrics import stringWidth

from reports import kinds
from reports.builders.cashier import build_cashier_report
from reports.builders.document import Document
from reports.builders.floor_summary import build_floor_summary
from reports.builders.period import build_period_report
from reports.renderers.as_csv import render_csv
from reports.renderers.as_pdf import render_pdf
from reports.renderers.language import REPORT_LANGUAGES
from reports.renderers.pdf_layout import FONT_SIZE, FRAME_WIDTH
from tables.engine.custody import SlipRequested, SlipVoided
from tables.engine.custody.cage import CageTotals

LANGUAGES = REPORT_LANGUAGES


def mesa_1_with_a_slip_voided_before_the_table() -> Document:
    """Fill 1003 was requested and voided before the cage issued it: it must still print."""
    facts = mesa_1_facts()
    voided = (
        SlipRequested("fill", 1003, {25: 4}, "pablo"),
        SlipVoided("fill", 1003, "asked twice", "pablo", "mara"),
    )
    document: Document = mesa_1_report(facts=(*facts[:4], *voided, *facts[4:]))
    return document


def provisional_floor() -> Document:
    """Generated before the shift ended: provisional, with every table named as a reason."""
    early = context(generated_at=context().shift_ends_at.replace(hour=3))
    tables = [mesa_1_report(ctx=early), stud_2_report(), mesa_3_report(), mesa_4_report()]
    return build_floor_summary(context=early, table_reports=tables)


def cashier_with_derived_signers() -> Document:
    return build_cashier_report(
        context=context(),
        ledgers=[
            ledger(t, *facts)
            for t, facts in (("T1", mesa_1_facts()), ("T3", mesa_3_facts()), ("T4", mesa_4_facts()))
        ],
        issued={"fill": range(1001, 1007), "credit": range(501, 503)},
        cage_voids=[SlipVoided("fill", 1005, "spoiled at the cage", "carla", "cesar")],
        cage_figures=CageTotals(fills_issued=2100, credits_received=500, entered_by="carla"),
        watermark={"T1": 412, "T3": 2, "T4": 30},
    )


def month_to_date() -> Document:
    """Mesa 1 (drop 2400, win 735), Stud 2 (drop 400, rake 6), Mesa 3 (nothing): drop 2800,
    win 735 over the banked drop 2400 = 30.62 %, theoretical 5.25, rake 6."""
    return build_period_report(
        kind="month_to_date",
        context=context(),
        table_reports=[mesa_1_report(), stud_2_report(), mesa_3_report()],
        auditor="aurora",
    )


# What each printed report must show: figures and names (any language), and words per language.
EXPECTED: dict[str, tuple[Callable[[], Document], tuple[str, ...], dict[str, tuple[str, ...]]]] = {
    "table-siete": (
        mesa_1_with_a_slip_voided_before_the_table,
        ("3350", "2685", "2400", "735", "30.62", "5.25", "-62.25", "1003", "mara", "dana"),
        {
            "es": ("Custodia", "Rellenos", "ANULADO", "Crupier", "Jefe de mesa", "Pasados"),
            "pt-br": ("Custódia", "Reposições", "ANULADO", "Crupiê", "Chefe de mesa", "Estouros"),
            "en": ("Custody", "Fills", "VOID", "Dealer", "Pit boss", "Busts"),
        },
    ),
    "table-stud": (
        stud_2_report,
        ("400", "126", "dora", "pablo"),
        {
            "es": ("Comisión total", "bote principal", "un juego con comisión"),
            "pt-br": ("Rake total", "pote principal", "um jogo com rake"),
            "en": ("Rake total", "main pot", "a raked game has no house edge"),
        },
    ),
    "floor": (
        provisional_floor,
        ("-365", "-14.04", "pablo"),
        {
            "es": ("Resumen de sala", "PROVISIONAL", "el turno no ha terminado", "toda la sala"),
            "pt-br": ("Resumo do salão", "PROVISÓRIO", "o turno não terminou", "salão inteiro"),
            "en": ("Floor summary", "PROVISIONAL", "the shift has not ended", "whole floor"),
        },
    ),
    "cashier": (
        cashier_with_derived_signers,
        ("1001-1006", "1004, 1006", "2100", "carla", "pablo", "cesar"),
        {
            "es": ("Informe de caja", "Cajero", "Jefe de mesa", "FALTA", "sobra"),
            "pt-br": ("Relatório da tesouraria", "Caixa", "Chefe de mesa", "FALTANDO", "sobra"),
            "en": ("Cashier (cage) report", "Cashier", "Pit boss", "MISSING", "over"),
        },
    ),
    "audit": (
        troubled_audit,
        ("aurora",),
        {
            "es": ("Informe de auditoría", "ROTA", "AUTOAPROBADO", "Auditor"),
            "pt-br": ("Relatório de auditoria", "QUEBRADA", "AUTOAPROVADO", "Auditor"),
            "en": ("Audit report", "BROKEN", "SELF-APPROVED", "Auditor"),
        },
    ),
    "month-to-date": (
        month_to_date,
        ("2800", "735", "30.62", "5.25", "aurora", "pablo", "2026-03-01"),
        {
            "es": ("Mes en curso", "Por mesa", "Por juego", "Ganancia teórica"),
            "pt-br": ("Mês até a data", "Por mesa", "Por jogo", "Ganho teórico"),
            "en": ("Month to date", "By table", "By game", "Theoretical win"),
        },
    ),
}
CODE_AS_WORD = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


def pdf_text(document: Document, language: str) -> str:
    reader = pypdf.PdfReader(io.BytesIO(render_pdf(document, language)))
    return "\n".join(page.extract_text() for page in reader.pages)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("report", list(EXPECTED))
def test_every_report_prints_its_figures_names_and_words_in_every_language(
    report: str, language: str
) -> None:
    build, figures_and_names, words = EXPECTED[report]
    text = pdf_text(build(), language)
    flat = text.replace("\n", " ")
    for expected in (*figures_and_names, *words[language]):
        assert expected in flat, f"{expected!r} missing from the {language} {report} report"
    assert CODE_AS_WORD.findall(flat) == []
    assert "Europe/Madrid" in flat
    assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:", flat), "a time printed in ISO form"


@pytest.mark.parametrize("language", LANGUAGES)
def test_times_print_in_the_casinos_zone_to_the_second(language: str) -> None:
    text = pdf_text(mesa_1_report(), language).replace("\n", " ")
    # The shift ends 05:00 UTC on 11 March, 06:00 in Madrid (CET); the alert came at 00:15.
    assert "2026-03-11 06:00:00 CET (Europe/Madrid)" in text
    assert "2026-03-11 00:15:00" in text


def test_a_stud_table_prints_no_siete_y_medio_rows() -> None:
    text = pdf_text(stud_2_report(), "en")
    for siete_only in ("Busts", "Pushes", "Paid:", "Breakage", "Boxes played", "Win ", "Hold %"):
        assert siete_only not in text
    assert "Rake: main pot" in text


def test_a_stud_document_lists_no_payout_classes_even_printed_with_every_row() -> None:
    """Stud's binding pays no hand class: the document lists none, so a print of every row
    (a document stored without its game's rows) has no Siete y Medio class at zero."""
    stud = stud_2_report()
    assert stud["rounds"]["payouts_by_class"] == {}
    every_row = {**stud, "table": {**stud["table"], "report_rows": None}}
    assert "Paid:" not in pdf_text(every_row, "en")
    csv_text = render_csv(every_row).decode()
    assert "rake_total" in csv_text
    assert not any(name in csv_text for name in ("real", "siete_y_medio", "puntaje"))


def test_a_siete_table_prints_no_rake_rows() -> None:
    text = pdf_text(mesa_1_report(), "en")
    assert "Rake" not in text
    assert "Paid: Real (2 to 1)" in text


def test_every_slip_prints_and_a_void_names_both_people() -> None:
    text = pdf_text(mesa_1_with_a_slip_voided_before_the_table(), "en").replace("\n", " ")
    assert "VOID: asked twice (asked by pablo, approved by mara)" in text
    assert "VOID: written for the wrong table (asked by pablo, approved by mara)" in text


def test_each_signature_line_has_the_signers_name_and_role_under_it() -> None:
    text = pdf_text(cashier_with_derived_signers(), "es")
    assert "carla, Cajero" in text
    assert "pablo, Jefe de mesa" in text
    assert "aurora, Auditor" in pdf_text(troubled_audit(), "pt-br")


@pytest.mark.parametrize("report", list(EXPECTED))
def test_each_language_is_its_own_deterministic_rendering(report: str) -> None:
    document = EXPECTED[report][0]()
    renderings = {language: render_pdf(document, language) for language in LANGUAGES}
    assert len(set(renderings.values())) == len(LANGUAGES)
    for language, rendered in renderings.items():
        assert render_pdf(document, language) == rendered


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("report", list(EXPECTED))
def test_every_cell_fits_its_column(report: str, language: str) -> None:
    """A cell printed as a plain string is never wider than its column (wider text wraps as a
    paragraph, never inside a word), and no table is wider than the page's frame."""
    from django.utils import translation
    from reportlab.platypus import Table

    document = EXPECTED[report][0]()
    with translation.override(language):
        sections = kinds.kind_for(document["kind"]).pdf_sections(document)
        tables = [f for f in sections if isinstance(f, Table)]
    assert tables
    for table in tables:
        widths = table._colWidths
        assert sum(widths) <= FRAME_WIDTH + 0.01
        for row_number, row in enumerate(table._cellvalues):
            font = "Helvetica-Bold" if row_number == 0 else "Helvetica"
            for column, cell in enumerate(row):
                # A string must fit whole; a wrapped paragraph must fit each of its words.
                words = [cell] if isinstance(cell, str) else unescape(cell.text).split()
                for word in words:
                    assert stringWidth(word, font, FONT_SIZE) + 12 <= widths[column], word


def test_the_page_mark_of_a_provisional_floor_fits_on_the_page() -> None:
    text = pdf_text(provisional_floor(), "pt-br")
    first_line = text.splitlines()
    assert any(line.strip() == "PROVISÓRIO" for line in first_line)
    assert stringWidth("PROVISIONAL / REPRINT (version 99)", "Helvetica-Bold", 9) < FRAME_WIDTH


def test_the_csv_of_a_stud_table_has_no_siete_y_medio_rows_and_voids_name_both_people() -> None:
    stud = render_csv(stud_2_report()).decode()
    assert ",busts," not in stud
    assert ",rake_total," in stud
    siete = render_csv(mesa_1_with_a_slip_voided_before_the_table()).decode()
    assert "VOID: asked twice (asked by pablo, approved by mara)" in siete
    assert ",busts," in siete
