"""The reports API: custody through HTTP, who sees which report, downloads, runs, reprints."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from pypdf import PdfReader

from reports.models import Report
from reports.services.storing import produce_report
from reports.shifts import floor_clock
from tables.services.custody import slips
from tests.reports.custody_floor import OPENING_CHIPS, Floor, open_books, past_shift

pytestmark = pytest.mark.django_db


def url(path: str) -> str:
    return f"/api/reports/{path}"


def body(response: Any) -> Any:
    return response.json()


def test_custody_refusals_come_back_with_their_code_and_sentence(
    floor: Floor, client_for: Any
) -> None:
    pit = client_for(floor.pit_boss)
    closer = {"chips": {"25": 10}}
    response = pit.post(url(f"tables/{floor.table.pk}/closer"), closer, format="json")
    assert response.status_code == 409
    assert body(response)["code"] == "closer_without_opener"
    assert "opener" in body(response)["detail"]
    opener = {"chips": OPENING_CHIPS}
    assert (
        pit.post(url(f"tables/{floor.table.pk}/opener"), opener, format="json").status_code == 201
    )
    confirmed = client_for(floor.dealer).post(url(f"tables/{floor.table.pk}/opener/confirm"))
    assert confirmed.status_code == 201
    slip = {"amounts": {"25": -100}}
    response = pit.post(url(f"tables/{floor.table.pk}/fills"), slip, format="json")
    assert (response.status_code, body(response)["code"]) == (422, "negative_amount")
    slip["amounts"] = {"25": 110}
    response = pit.post(url(f"tables/{floor.table.pk}/credits"), slip, format="json")
    assert (response.status_code, body(response)["code"]) == (422, "not_denominated")
    slip["amounts"] = {"25": 100}
    response = pit.post(url(f"tables/{floor.table.pk}/credits"), slip, format="json")
    assert response.status_code == 201
    assert body(response)["payload"]["slip_number"] == 1


def test_a_dealer_cannot_issue_a_fill_nor_see_any_report(floor: Floor, client_for: Any) -> None:
    key = past_shift(floor)
    produce_report("cashier", key)
    dealer = client_for(floor.dealer)
    slip = {"amounts": {"25": 100}}
    assert (
        dealer.post(url(f"tables/{floor.table.pk}/fills"), slip, format="json").status_code == 403
    )
    assert dealer.post(url("slips/fill/1/issue"), {}, format="json").status_code == 403
    assert dealer.get(url("")).status_code == 403
    report = Report.objects.get(kind="cashier")
    assert dealer.get(url(f"{report.pk}/download/pdf")).status_code == 403


def test_a_cashier_sees_only_cashier_reports_and_an_auditor_sees_all(
    floor: Floor, client_for: Any, auditor_alba: User
) -> None:
    key = past_shift(floor)
    for kind in ("floor_summary", "cashier", "audit"):
        produce_report(kind, key)
    cashier_view = body(client_for(floor.cashier).get(url("")))
    assert {row["kind"] for row in cashier_view} == {"cashier"}
    audit = Report.objects.get(kind="audit")
    assert client_for(floor.cashier).get(url(f"{audit.pk}")).status_code == 403
    auditor_view = body(client_for(auditor_alba).get(url(""), {"gaming_day": key.gaming_day}))
    assert {row["kind"] for row in auditor_view} == {
        "table_shift",
        "floor_summary",
        "cashier",
        "audit",
    }
    by_table = client_for(auditor_alba).get(url(""), {"table": floor.table.name})
    assert [row["kind"] for row in body(by_table)] == ["table_shift"]


def test_downloads_give_the_stored_json_csv_and_pdf(
    floor: Floor, client_for: Any, auditor_alba: User
) -> None:
    key = past_shift(floor)
    report = produce_report("table_shift", key, table=floor.table)
    auditor = client_for(auditor_alba)
    as_json = auditor.get(url(f"{report.pk}/download/json"))
    assert as_json["Content-Type"] == "application/json"
    assert json.loads(as_json.content)["custody"]["fills_total"] == 500
    assert as_json["X-Content-SHA256"] == report.content_hash
    as_csv = auditor.get(url(f"{report.pk}/download/csv")).content.decode()
    assert "section" in as_csv.splitlines()[0].split(",")
    assert "FINAL" in as_csv
    pdf = auditor.get(url(f"{report.pk}/download/pdf"))
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Table shift report" in text
    assert floor.table.name in text
    assert report.content_hash in text.replace("\n", "")
    assert auditor.get(url(f"{report.pk}/download/xls")).status_code == 404


def test_a_run_is_started_and_followed_through_the_api(
    floor: Floor,
    client_for: Any,
    auditor_alba: User,
    django_capture_on_commit_callbacks: Any,
    eager_celery: None,
) -> None:
    key = past_shift(floor)
    auditor = client_for(auditor_alba)
    request = {"kind": "floor_summary", "gaming_day": key.gaming_day, "shift": key.shift}
    with django_capture_on_commit_callbacks(execute=True):
        started = auditor.post(url("runs"), request, format="json")
    assert started.status_code == 202
    run = body(auditor.get(url(f"runs/{body(started)['id']}")))
    assert (run["status"], run["progress_percent"]) == ("succeeded", 100)
    summary = Report.objects.get(pk=run["detail"]["report_id"])
    assert summary.kind == "floor_summary"
    assert summary.document["floor"]["fills"] == 500


def test_a_rerun_returns_the_same_report_and_a_reprint_makes_a_new_version(
    floor: Floor, client_for: Any, auditor_alba: User
) -> None:
    key = past_shift(floor)
    first = produce_report("cashier", key)
    again = produce_report("cashier", key)
    assert again.pk == first.pk
    assert bytes(again.pdf_bytes) == bytes(first.pdf_bytes)
    reprint = produce_report("cashier", key, reprint=True)
    assert (reprint.version, reprint.reprint) == (2, True)
    assert reprint.content_hash != first.content_hash
    assert Report.objects.filter(kind="cashier").count() == 2
    csv_text = bytes(reprint.csv_bytes).decode()
    assert "REPRINT" in csv_text


def test_a_void_after_the_report_makes_the_next_run_a_new_version(floor: Floor) -> None:
    key = past_shift(floor)
    first = produce_report("table_shift", key, table=floor.table)
    slips.slip_void(
        slip_type="fill",
        slip_number=1,
        reason="issued to the wrong table",
        requested_by=floor.other_pit_boss,
        approver=floor.pit_boss,
    )
    second = produce_report("table_shift", key, table=floor.table)
    assert second.version == 2
    assert second.document["custody"]["fills_total"] == 0
    assert second.watermark[floor.table.name] > first.watermark[floor.table.name]


def test_a_report_of_a_shift_still_open_is_provisional_or_refused(
    floor: Floor,
    client_for: Any,
    auditor_alba: User,
    django_capture_on_commit_callbacks: Any,
    eager_celery: None,
) -> None:
    open_books(
        floor.table.pk,
        dealer=floor.dealer,
        pit_boss=floor.pit_boss,
        chips=OPENING_CHIPS,
    )
    key = floor_clock().shift_of(timezone.now())
    report = produce_report("table_shift", key, table=floor.table)
    assert report.provisional
    assert set(report.document["provisional_reasons"]) == {
        "shift_not_ended",
        "no_closer",
        "drop_not_counted",
    }
    auditor = client_for(auditor_alba)
    request = {
        "kind": "cashier",
        "gaming_day": key.gaming_day,
        "shift": key.shift,
        "allow_provisional": False,
    }
    with django_capture_on_commit_callbacks(execute=True):
        run = body(auditor.post(url("runs"), request, format="json"))
    run = body(auditor.get(url(f"runs/{run['id']}")))
    assert run["status"] == "failed"
    assert run["detail"]["error"]["code"] == "shift_still_open"
    assert not Report.objects.filter(kind="cashier").exists()


def test_a_run_of_an_unknown_kind_is_refused(client_for: Any, auditor_alba: User) -> None:
    request = {"kind": "tips", "gaming_day": "2026-01-15", "shift": "day"}
    response = client_for(auditor_alba).post(url("runs"), request, format="json")
    assert response.status_code == 400
    assert "kind" in body(response)["fields"]
