"""Every surface a person or a log can read, gathered as text for one live table."""

from __future__ import annotations

import io
from typing import Any

from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from devices.models import Device, DeviceEvent, DeviceIncident, MisreadHold
from reports.models import Report
from reports.shifts import floor_clock
from tables.models import Alert, CorrectionRequest, Round, TableEvent
from tests.disclosure.floor import SHOE_SERIAL, LiveRound

READERS = ("dealer", "pit_boss", "auditor", "admin")


def api_reads(live: LiveRound) -> str:
    """What each role can read about the table now (the answers are kept by the clients)."""
    table_id = live.table.pk
    for name in READERS:
        client = live.clients[name]
        for url in (
            "/api/tables",
            f"/api/tables/{table_id}",
            f"/api/tables/{table_id}/events",
            f"/api/tables/{table_id}/rounds/1",
            "/api/alerts",
            "/api/corrections",
            "/api/devices/",
        ):
            client.get(url)
        if live.device_id is not None:
            client.get(f"/api/devices/{live.device_id}")
    return "\n".join(live.bodies)


def device_report_text() -> str:
    plain, as_json = io.StringIO(), io.StringIO()
    call_command("device_report", "--device", SHOE_SERIAL, stdout=plain)
    call_command("device_report", "--device", SHOE_SERIAL, "--json", stdout=as_json)
    return plain.getvalue() + as_json.getvalue()


def provisional_audit_text(live: LiveRound, capture_on_commit: Any) -> str:
    """An audit of the shift in play, run through the reports API and its Celery tasks."""
    key = floor_clock().shift_of(timezone.now())
    auditor = live.clients["auditor"]
    body = {"kind": "audit", "gaming_day": key.gaming_day.isoformat(), "shift": key.shift}
    with capture_on_commit(execute=True):
        run = auditor.post("/api/reports/runs", body, format="json")
    assert run.status_code == 202, run.content
    detail = auditor.get(f"/api/reports/runs/{run.json()['id']}").json()
    report = Report.objects.get(pk=detail["detail"]["report_id"])
    assert report.provisional
    auditor.get(f"/api/reports/{report.pk}")
    stored = bytes(report.json_bytes) + bytes(report.csv_bytes)
    return stored.decode(errors="replace") + "\n" + "\n".join(auditor.bodies[-3:])


def admin_pages_text(live: LiveRound) -> str:
    browser = Client()
    browser.force_login(live.people["admin"])
    pages = [
        "/admin/tables/tableevent/",
        "/admin/tables/round/",
        "/admin/tables/alert/",
        "/admin/devices/deviceevent/",
        "/admin/devices/misreadhold/",
        "/admin/devices/deviceincident/",
    ]
    rows: list[tuple[str, Any]] = [
        ("tables/tableevent", TableEvent.objects.filter(table=live.table)),
        ("tables/round", Round.objects.filter(table=live.table)),
        ("tables/alert", Alert.objects.filter(table=live.table)),
        ("tables/correctionrequest", CorrectionRequest.objects.filter(table=live.table)),
        ("devices/deviceevent", DeviceEvent.objects.all()),
        ("devices/misreadhold", MisreadHold.objects.all()),
        ("devices/deviceincident", DeviceIncident.objects.all()),
        ("devices/device", Device.objects.all()),
    ]
    for path, queryset in rows:
        pages += [f"/admin/{path}/{pk}/change/" for pk in queryset.values_list("pk", flat=True)]
    texts = []
    for page in pages:
        response = browser.get(page)
        assert response.status_code == 200, page
        texts.append(response.content.decode())
    return "\n".join(texts)
