"""Stored reports: list, read, download as JSON, CSV or PDF; start a run and follow it."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from reports import kinds
from reports.api.access import check_can_see, visible_kinds
from reports.api.serializers import (
    JobRunSerializer,
    ReportDetailSerializer,
    ReportSerializer,
    RunRequestSerializer,
)
from reports.models import JobRun, Report
from reports.renderers import as_csv, as_json, as_pdf
from reports.renderers.language import requested_language
from reports.services.renderings import rendering_of
from reports.shifts import parse_shift_key
from reports.tasks import start_run
from tables.api.bounds import bad_text
from tables.api.permissions import Declared, described
from tables.api.views_tables import ERRORS
from tables.engine.errors import InvalidInputError
from tables.models import Table

FORMATS = {
    "json": ("json_bytes", as_json.CONTENT_TYPE),
    "csv": ("csv_bytes", as_csv.CONTENT_TYPE),
    "pdf": ("pdf_bytes", as_pdf.CONTENT_TYPE),
}
FILTERS = [
    OpenApiParameter("gaming_day", str, description="YYYY-MM-DD"),
    OpenApiParameter("shift", str),
    OpenApiParameter("table", str, description="table name"),
    OpenApiParameter("kind", str, description="table_shift, floor_summary, cashier or audit"),
]


def visible_reports(request: Request) -> QuerySet[Report]:
    return Report.objects.filter(kind__in=visible_kinds(request.user)).select_related("table")


def report_for(request: Request, report_id: int) -> Report:
    report = Report.objects.filter(pk=report_id).select_related("table").first()
    if report is None:
        raise NotFound("There is no such report.")
    check_can_see(request.user, report.kind)
    return report


def _filters(request: Request) -> dict[str, Any]:
    """The list's filters, checked: a gaming day that is no date, or text with control
    characters, is a 400 naming the filter."""
    params = request.query_params
    wanted: dict[str, Any] = {}
    for name, lookup in (("shift", "shift"), ("kind", "kind"), ("table", "table__name")):
        value = params.get(name)
        if value:
            if bad_text(value) or len(value) > 64:
                raise ValidationError({name: [f"{name} is not a valid filter value."]})
            wanted[lookup] = value
    if params.get("gaming_day"):
        try:
            wanted["gaming_day"] = date.fromisoformat(params["gaming_day"])
        except ValueError:
            raise ValidationError(
                {"gaming_day": ["gaming_day is a date written as YYYY-MM-DD."]}
            ) from None
    return wanted


class ReportListView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"GET": "reports.read"}

    @extend_schema(
        summary="List stored reports (every version) by gaming day, shift, table and kind",
        description=described("reports.read"),
        parameters=FILTERS,
        responses={200: ReportSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request) -> Response:
        reports = visible_reports(request).filter(**_filters(request))
        return Response(ReportSerializer(reports, many=True).data)


class ReportDetailView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"GET": "reports.read"}

    @extend_schema(
        summary="One stored report with its document",
        description=described("reports.read"),
        responses={200: ReportDetailSerializer, **ERRORS},
    )
    def get(self, request: Request, report_id: int) -> Response:
        return Response(ReportDetailSerializer(report_for(request, report_id)).data)


class ReportDownloadView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"GET": "reports.read"}

    @extend_schema(
        summary="Download a report as JSON, CSV or PDF (the stored bytes; a PDF in es, pt-br "
        "or en from ?lang=, else Accept-Language, else the floor's default)",
        description=described("reports.read"),
        parameters=[OpenApiParameter("lang", str, description="es, pt-br or en (PDF)")],
        responses={200: OpenApiResponse(description="The report file"), **ERRORS},
    )
    def get(self, request: Request, report_id: int, fmt: str) -> HttpResponse:
        if fmt not in FORMATS:
            raise NotFound("Reports download as json, csv or pdf.")
        language = requested_language(
            request.query_params.get("lang"), request.headers.get("Accept-Language")
        )
        report = report_for(request, report_id)
        rendering = rendering_of(report, fmt, language)
        response = HttpResponse(bytes(rendering.content), content_type=FORMATS[fmt][1])
        name = f"{report.kind}-{report.gaming_day}-{report.shift}-{report.scope}-v{report.version}"
        if rendering.language:
            name += f"-{rendering.language}"
            response["Content-Language"] = rendering.language
        response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
        response["X-Content-SHA256"] = rendering.sha256
        response["X-Document-SHA256"] = report.content_hash
        return response


class RunCreateView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"POST": "report.run"}

    @extend_schema(
        summary="Start a report run (queued on the reports queue); follow it by its id",
        description=described("report.run"),
        request=RunRequestSerializer,
        responses={202: JobRunSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        serializer = RunRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data: dict[str, Any] = dict(serializer.validated_data)
        check_can_see(request.user, data["kind"])
        key = parse_shift_key(data["gaming_day"], data["shift"])
        table_id = data.get("table")
        if kinds.kind_for(data["kind"]).per_table:
            if table_id is None:
                raise ValidationError({"table": ["A report of one table names its table."]})
            if not Table.objects.filter(pk=table_id).exists():
                raise InvalidInputError("There is no such table.", code="table_not_found")
        with transaction.atomic():
            job = start_run_after_commit(
                data["kind"], key, table_id, data["reprint"], data["allow_provisional"]
            )
        job.refresh_from_db()
        return Response(JobRunSerializer(job).data, status=status.HTTP_202_ACCEPTED)


def start_run_after_commit(
    kind: str, key: Any, table_id: int | None, reprint: bool, allow_provisional: bool
) -> JobRun:
    """The run row is committed before its job is queued, so a worker always finds it."""
    job = JobRun.objects.create(kind=kind, detail={"requested": True})
    transaction.on_commit(
        lambda: start_run(
            kind,
            key,
            table_id=table_id,
            reprint=reprint,
            allow_provisional=allow_provisional,
            job=job,
        )
    )
    return job


class RunDetailView(APIView):
    permission_classes = (Declared,)
    policy_commands = {"GET": "reports.read"}

    @extend_schema(
        summary="Follow a report run: status, progress and the report it made",
        description=described("reports.read"),
        responses={200: JobRunSerializer, **ERRORS},
    )
    def get(self, request: Request, run_id: str) -> Response:
        job = JobRun.objects.filter(pk=run_id).first()
        if job is None:
            raise NotFound("There is no such run.")
        check_can_see(request.user, job.kind)
        return Response(JobRunSerializer(job).data)
