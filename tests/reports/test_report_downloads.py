"""Downloads: each format and language is its own stored rendering, sent with the SHA-256 of
its own bytes; the language comes from ?lang=, then Accept-Language, then the floor default."""

from __future__ import annotations

import hashlib
import io
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import override_settings
from pypdf import PdfReader

from reports.models import JobRun, Report, ReportRendering
from reports.services.documents import PERIOD_SHIFT
from reports.services.storing import produce_report
from reports.shifts import ShiftKey
from reports.tasks import start_run
from tables.services.floor import table_create
from tests.reports.custody_floor import Floor, past_shift

pytestmark = pytest.mark.django_db


def download(client: Any, report_id: int, fmt: str, **headers: str) -> Any:
    lang = headers.pop("lang", None)
    query = f"?lang={lang}" if lang else ""
    return client.get(f"/api/reports/{report_id}/download/{fmt}{query}", **headers)


def pdf_text(content: bytes) -> str:
    return "".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def test_every_rendering_is_sent_with_the_sha256_of_its_own_bytes(
    floor: Floor, client_for: Any, auditor_alba: User
) -> None:
    report = produce_report("table_shift", past_shift(floor), table=floor.table)
    auditor = client_for(auditor_alba)
    digests = set()
    for fmt, lang in (
        ("json", None),
        ("csv", None),
        ("pdf", "es"),
        ("pdf", "pt-br"),
        ("pdf", "en"),
    ):
        response = download(auditor, report.pk, fmt, **({"lang": lang} if lang else {}))
        assert response.status_code == 200
        assert response["X-Content-SHA256"] == hashlib.sha256(response.content).hexdigest()
        assert response["X-Document-SHA256"] == report.content_hash
        digests.add(response["X-Content-SHA256"])
    assert len(digests) == 5
    json_rendering = ReportRendering.objects.get(report=report, format="json")
    assert json_rendering.sha256 == report.content_hash
    # Stored once per format and language; asking again sends the same bytes.
    assert ReportRendering.objects.filter(report=report).count() == 5
    again = download(auditor, report.pk, "pdf", lang="es")
    assert hashlib.sha256(again.content).hexdigest() in digests
    assert ReportRendering.objects.filter(report=report).count() == 5


def test_the_language_comes_from_the_query_then_the_header_then_the_floor(
    floor: Floor, client_for: Any, auditor_alba: User
) -> None:
    report = produce_report("table_shift", past_shift(floor), table=floor.table)
    auditor = client_for(auditor_alba)
    asked = download(auditor, report.pk, "pdf", lang="pt-BR", HTTP_ACCEPT_LANGUAGE="es")
    assert asked["Content-Language"] == "pt-br"
    assert "Relatório de turno da mesa" in pdf_text(asked.content)
    header = download(auditor, report.pk, "pdf", HTTP_ACCEPT_LANGUAGE="fr;q=0.9, es-ES;q=0.8")
    assert header["Content-Language"] == "es"
    assert "Informe de turno de mesa" in pdf_text(header.content)
    with override_settings(CASINO_REPORT_LANGUAGE="pt-br"):
        default = download(auditor, report.pk, "pdf")
    assert default["Content-Language"] == "pt-br"
    assert 'filename="table_shift-' in default["Content-Disposition"]
    assert default["Content-Disposition"].endswith('-pt-br.pdf"')


def test_a_language_the_floor_does_not_print_is_refused_clearly(
    floor: Floor, client_for: Any, auditor_alba: User
) -> None:
    report = produce_report("table_shift", past_shift(floor), table=floor.table)
    response = download(client_for(auditor_alba), report.pk, "pdf", lang="fr")
    assert response.status_code == 422
    assert response.json()["code"] == "unknown_language"
    assert "es, pt-br, en" in response.json()["detail"]
    assert not ReportRendering.objects.filter(report=report, format="pdf", language="fr").exists()


def test_a_period_report_is_stored_and_rendered_like_the_others(
    floor: Floor, client_for: Any, auditor_alba: User
) -> None:
    key = past_shift(floor)
    produce_report("table_shift", key, table=floor.table)
    report = produce_report("month_to_date", ShiftKey(key.gaming_day, PERIOD_SHIFT))
    assert report.document["period"]["first_day"] == key.gaming_day.replace(day=1).isoformat()
    assert report.document["floor"]["tables"] >= 1
    response = download(client_for(auditor_alba), report.pk, "pdf", lang="es")
    assert "Mes en curso" in pdf_text(response.content)


def test_a_stud_tables_stored_report_prints_the_rows_of_its_game(floor: Floor) -> None:
    stud = table_create(
        name="Stud-9", game="seven_card_stud", seat_count=8, settings={"small_bet": 20}
    )
    report = produce_report("table_shift", past_shift(floor), table=stud)
    assert "busts" not in report.document["table"]["report_rows"]["rounds"]
    assert report.document["rounds"]["payouts_by_class"] == {}
    text = pdf_text(bytes(report.pdf_bytes))
    assert "Seven-Card Stud" in text
    assert "Rake total" in text
    assert "Busts" not in text
    assert "Paid:" not in text


def test_a_period_report_runs_as_a_job_like_the_others(floor: Floor, eager_celery: None) -> None:
    key = past_shift(floor)
    run = start_run("year_to_date", ShiftKey(key.gaming_day, PERIOD_SHIFT))
    run.refresh_from_db()
    assert run.status == JobRun.Status.SUCCEEDED
    report = Report.objects.get(pk=run.detail["report_id"])
    assert report.kind == "year_to_date"
    assert report.document["period"]["first_day"] == f"{key.gaming_day.year}-01-01"
    # The job made the missing report of the table that kept custody in the ended shift.
    assert Report.objects.filter(kind="table_shift", shift=key.shift).exists()
    assert report.document["floor"]["shifts"] >= 1
