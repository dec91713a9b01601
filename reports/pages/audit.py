"""`/audit/`, the auditor: stored reports by gaming day, shift, table and kind, with their
downloads and hashes; each table's chain; a round's timeline; the shift's expected versus actual.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from rest_framework.exceptions import APIException

from reports.figures import band_document
from reports.inputs.table_shift import table_shift_inputs
from reports.inputs.variance import table_shift_band
from reports.models import Report, ReportRendering
from reports.pages import audit_desk
from reports.shifts import ShiftKey, floor_clock
from tables.models import Table
from tables.pages.floor_access import refusal_text, screen_for
from tables.policy import screens

AUDIT = screens.viewers("audit")
CONTENT_TYPES = {
    "json": "application/json",
    "csv": "text/csv; charset=utf-8",
    "pdf": "application/pdf",
}


@screen_for(*AUDIT)
@never_cache
def audit_home(request: HttpRequest) -> HttpResponse:
    filters = _filters(request)
    context = {
        "filters": filters,
        "reports": audit_desk.report_rows(**filters),
        "tables": Table.objects.order_by("name"),
        "kinds": Report.Kind.choices,
        "shifts": floor_clock().shift_names(),
        "expected": _expected_versus_actual(filters),
    }
    return render(request, "audit/audit.html", context)


@screen_for(*AUDIT)
def audit_download(request: HttpRequest, rendering_id: int) -> HttpResponse:
    """One stored rendering's bytes, exactly those whose SHA-256 the list shows."""
    rendering = get_object_or_404(ReportRendering.objects.select_related("report"), pk=rendering_id)
    report = rendering.report
    response = HttpResponse(bytes(rendering.content), content_type=CONTENT_TYPES[rendering.format])
    name = f"{report.kind}-{report.gaming_day}-{report.shift}-{report.scope}-v{report.version}"
    if rendering.language:
        name += f"-{rendering.language}"
    response["Content-Disposition"] = f'attachment; filename="{name}.{rendering.format}"'
    response["X-Content-SHA256"] = rendering.sha256
    return response


@screen_for(*AUDIT)
@never_cache
def audit_verify(request: HttpRequest, table_id: int) -> HttpResponse:
    """`verify_log` for one table (every link and every round replayed): on request, it reads
    the whole log."""
    table = get_object_or_404(Table, pk=table_id)
    result = audit_desk.table_verification(table)
    return render(request, "audit/_verify.html", {"table": table, "result": result})


@screen_for(*AUDIT)
@never_cache
def audit_round(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    try:
        timeline = audit_desk.round_timeline(table, number)
    except APIException as error:
        refusal = {"heading": table.name, "explanation": refusal_text(error)}
        return render(request, "pages/no_screen.html", refusal, status=error.status_code)
    replayed = json.dumps(timeline.replayed, indent=1, sort_keys=True, default=str)
    context: dict[str, Any] = {"table": table, "timeline": timeline, "replayed_json": replayed}
    return render(request, "audit/round.html", context)


@screen_for(*AUDIT)
def audit_round_lookup(request: HttpRequest) -> HttpResponse:
    """The round picker's GET: on to that round's timeline."""
    table, number = request.GET.get("table", ""), request.GET.get("round", "")
    if not (table.isdigit() and number.isdigit()):
        return redirect("audit")
    return redirect("audit-round", table_id=int(table), number=int(number))


def _filters(request: HttpRequest) -> dict[str, Any]:
    found: dict[str, Any] = {}
    try:
        if request.GET.get("gaming_day"):
            found["gaming_day"] = date.fromisoformat(request.GET["gaming_day"])
    except ValueError:
        pass  # an unreadable day filters nothing
    if request.GET.get("shift"):
        found["shift"] = request.GET["shift"][:32]
    if request.GET.get("table", "").isdigit():
        found["table_id"] = int(request.GET["table"])
    if request.GET.get("kind") in Report.Kind.values:
        found["kind"] = request.GET["kind"]
    return found


def _expected_versus_actual(filters: dict[str, Any]) -> list[dict[str, Any]]:
    """Per table, the shift's theoretical win, its band and the actual win (a day and a shift
    must be chosen: each table's rounds are read from the log)."""
    if "gaming_day" not in filters or "shift" not in filters:
        return []
    key = ShiftKey(filters["gaming_day"], filters["shift"])
    rows = []
    for table in Table.objects.order_by("name"):
        inputs = table_shift_inputs(table, key)
        if inputs.ledger.opener is None:
            continue
        band = table_shift_band(table, inputs.rounds, inputs.settled_seqs)
        rows.append({"table": table, "band": band_document(band)})
    return rows
