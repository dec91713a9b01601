import csv
import hashlib
import io
import json
from collections.abc import Callable

import pypdf
import pytest
from report_samples import (
    clean_audit,
    context,
    fill,
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

from reports.builders.cashier import build_cashier_report
from reports.builders.document import Document, content_hash
from reports.builders.floor_summary import build_floor_summary
from reports.renderers.as_csv import render_csv
from reports.renderers.as_json import render_json
from reports.renderers.as_pdf import render_pdf
from reports.renderers.csv_audit_rows import AUDIT_COLUMNS
from reports.renderers.csv_rows import (
    CASHIER_COLUMNS,
    FLOOR_COLUMNS,
    TABLE_SHIFT_COLUMNS,
)
from reports.renderers.pdf_sections import number_ranges
from tables.engine.custody import SlipCageSigned, SlipRequested, SlipVoided
from tables.engine.custody.cage import CageTotals


def floor_report() -> Document:
    tables = [mesa_1_report(), stud_2_report(), mesa_3_report(), mesa_4_report()]
    return build_floor_summary(context=context(), table_reports=tables, shift_manager="sofia")


def cashier_report() -> Document:
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
        cashier="carla",
        cage_supervisor="cesar",
    )


EVERY_KIND: list[Callable[[], Document]] = [
    mesa_1_report,
    mesa_3_report,
    stud_2_report,
    floor_report,
    cashier_report,
    clean_audit,
    troubled_audit,
]
RENDERERS = [render_json, render_csv, render_pdf]


def pdf_text(document: Document) -> str:
    reader = pypdf.PdfReader(io.BytesIO(render_pdf(document)))
    return "\n".join(page.extract_text() for page in reader.pages)


def csv_rows(document: Document) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(render_csv(document).decode("utf-8"))))


@pytest.mark.parametrize("build", EVERY_KIND)
@pytest.mark.parametrize("render", RENDERERS)
def test_the_same_document_renders_to_the_same_bytes(
    build: Callable[[], Document], render: Callable[[Document], bytes]
) -> None:
    assert render(build()) == render(build())


def test_the_json_rendering_is_the_canonical_form_the_hash_covers() -> None:
    document = mesa_1_report()
    rendered = render_json(document)
    assert json.loads(rendered) == document
    assert hashlib.sha256(rendered).hexdigest() == content_hash(document)
    assert b" " not in rendered.split(b'"message"')[0]  # no spaces outside strings


def test_the_table_shift_csv_parses_back_with_its_figures() -> None:
    rows = csv_rows(mesa_1_report())
    assert tuple(rows[0]) == TABLE_SHIFT_COLUMNS
    assert rows[0]["section"] == "report"
    assert rows[0]["note"].startswith("FINAL; version 1")
    figures = {row["item"]: row["amount"] for row in rows if row["section"] == "figures"}
    assert (figures["win"], figures["hold_percent"], figures["drop"]) == ("735", "30.62", "2400")
    void = [row for row in rows if row["slip_number"] == "1002" and row["item"] == "total"]
    assert void[0]["note"] == "VOID: written for the wrong table (asked by pablo, approved by mara)"
    opener = [row for row in rows if row["section"] == "opener" and row["item"] == "chips"]
    assert sum(int(row["amount"]) for row in opener) == 3350


def test_the_floor_csv_has_one_row_per_table_game_and_floor() -> None:
    rows = csv_rows(floor_report())
    assert tuple(rows[0]) == FLOOR_COLUMNS
    assert [row["scope"] for row in rows] == ["table"] * 4 + ["game"] * 2 + ["floor"]
    assert rows[-1]["win"] == "-365"
    assert rows[-1]["hold_percent"] == "-14.04"


def test_the_cashier_csv_lists_the_sequence_and_over_short() -> None:
    rows = csv_rows(cashier_report())
    assert tuple(rows[0]) == CASHIER_COLUMNS
    missing = [row["slip_number"] for row in rows if row["status"] == "missing"]
    assert missing == ["1004", "1006", "502"]
    (fill_over_short,) = [
        r for r in rows if r["section"] == "over_short" and r["slip_type"] == "fill"
    ]
    assert (fill_over_short["amount"], fill_over_short["status"]) == ("100", "over")


def test_the_audit_csv_flags_self_approval_and_findings() -> None:
    rows = csv_rows(troubled_audit())
    assert tuple(rows[0]) == AUDIT_COLUMNS
    corrections = [row for row in rows if row["section"] == "correction"]
    assert corrections[1]["detail"] == "wrong card count [SELF-APPROVED]"
    findings = {row["kind"]: row["detail"] for row in rows if row["section"] == "finding"}
    assert findings["chain_breaks"] == "1"


def test_a_provisional_reprint_says_so_in_every_rendering() -> None:
    early = context(generated_at=context().shift_ends_at.replace(hour=4), version=3)
    document = mesa_1_report(ctx=early)
    assert "PROVISIONAL (shift_not_ended); REPRINT (version 3)" in csv_rows(document)[0]["note"]
    text = pdf_text(document)
    assert "PROVISIONAL: the shift has not ended" in text
    assert "REPRINT (version 3)" in text


def test_the_table_shift_pdf_shows_the_figures_and_signature_lines() -> None:
    text = pdf_text(mesa_1_report())
    for figure in ("3350", "2685", "1500", "2400", "735", "30.62", "5.25", "-62.25", "175"):
        assert figure in text
    assert "1002" in text
    assert "VOID" in text
    assert "Dealer" in text
    assert "Pit boss" in text
    assert "Signature" in text
    assert "______" in text
    assert "PROVISIONAL" not in text
    assert "REPRINT" not in text
    assert content_hash(mesa_1_report()) in text


def test_the_floor_pdf_shows_the_totals() -> None:
    text = pdf_text(floor_report())
    assert "-365" in text
    assert "-14.04" in text
    assert "whole floor" in text
    assert "Shift manager" in text
    assert "sofia" in text


def test_the_cashier_pdf_shows_the_sequence_and_signers() -> None:
    text = pdf_text(cashier_report())
    assert "1001-1006" in text  # issued
    assert "1004, 1006" in text  # missing
    assert "Cashier" in text
    assert "Cage supervisor" in text
    assert "cesar" in text
    assert "over" in text
    assert "2100" in text


def test_the_audit_pdf_shows_chain_heads_and_exceptions() -> None:
    text = pdf_text(troubled_audit())
    assert "a" * 40 in text.replace("\n", "")  # the head hash, possibly wrapped
    assert "BROKEN" in text
    assert "SELF-APPROVED" in text
    assert "Auditor" in text
    assert "aurora" in text


def test_slip_numbers_print_as_ranges() -> None:
    assert number_ranges([1005, 1001, 1002, 1003, 1007]) == "1001-1003, 1005, 1007"
    assert number_ranges([]) == "none"


def test_text_with_markup_characters_is_printed_as_written() -> None:
    facts = [
        *mesa_1_facts()[:3],
        SlipVoided(
            "fill", 1002, "<b>wrong</b> table & wrong amount, see the pit log", "pablo", "mara"
        ),
        *mesa_1_facts()[4:],
    ]
    text = pdf_text(mesa_1_report(facts=tuple(facts))).replace("\n", " ")
    assert "<b>wrong</b> table & wrong" in text


def test_a_long_cage_report_splits_its_tables_across_pages() -> None:
    fills = [fill(number, {5: 1}) for number in range(1001, 1011)]
    many = build_cashier_report(
        context=context(),
        ledgers=[
            ledger(f"T{i}", *mesa_3_facts()[:1], *fills, *mesa_3_facts()[1:]) for i in range(12)
        ],
        issued={"fill": range(1001, 1011)},
        cage_figures=None,
        watermark={},
    )
    reader = pypdf.PdfReader(io.BytesIO(render_pdf(many)))
    assert len(reader.pages) > 2
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert text.count("T11") >= 10  # every slip of the last table is printed


def test_a_shift_with_no_activity_prints_its_zero_figures() -> None:
    text = pdf_text(mesa_3_report())
    assert "Mesa 3 (T3)" in text
    assert "Hands played" in text
    assert "1000" in text  # the opener and the closer
    rows = csv_rows(mesa_3_report())
    figures = {row["item"]: row["amount"] for row in rows if row["section"] == "figures"}
    assert (figures["win"], figures["hold_percent"]) == ("0", "")


def cage_with_outstanding_slips() -> Document:
    """Fill 1002 requested, credit 501 received but not confirmed; the cage entered nothing."""
    facts = (
        *mesa_3_facts()[:1],
        SlipRequested("fill", 1002, {25: 4}, "pablo"),
        SlipRequested("credit", 501, {25: 8}, "pablo"),
        SlipCageSigned("credit", 501, {25: 8}, "carla"),
        *mesa_3_facts()[1:],
    )
    return build_cashier_report(
        context=context(),
        ledgers=[ledger("T3", *facts)],
        issued={"fill": [1002], "credit": [501]},
        cage_figures=None,
        watermark={"T3": 9},
    )


def test_outstanding_slips_and_missing_cage_figures_show_in_csv_and_pdf() -> None:
    rows = csv_rows(cage_with_outstanding_slips())
    outstanding = [
        (row["slip_type"], row["slip_number"]) for row in rows if row["status"] == "outstanding"
    ]
    assert ("fill", "1002") in outstanding
    assert ("credit", "501") in outstanding
    notes = {row["slip_number"]: row["note"] for row in rows if row["section"] == "slip"}
    assert notes["501"] == "OUTSTANDING: received, not confirmed at the table"
    over_short = [row for row in rows if row["section"] == "over_short"]
    assert {row["status"] for row in over_short} == {"not_entered"}
    assert "200 not confirmed at the table" in over_short[1]["note"]
    text = pdf_text(cage_with_outstanding_slips())
    assert "OUTSTANDING (requested)" in text
    assert "OUTSTANDING (received)" in text
    assert "not entered" in text
