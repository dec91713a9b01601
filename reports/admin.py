"""Read-only admin pages: reports, runs, slips and cage figures are written by the services only."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from reports.models import CageFigures, JobRun, Report, Slip


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Report)
class ReportAdmin(ReadOnlyAdmin):
    list_display = ("kind", "gaming_day", "shift", "scope", "version", "reprint", "provisional")
    list_filter = ("kind", "shift", "provisional", "reprint")
    exclude = ("json_bytes", "csv_bytes", "pdf_bytes")

    def get_exclude(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        # A provisional report was made while rounds were live; auditors read it through the
        # API, and the admin, who is not an auditor, sees only its header here.
        hidden = ("document",) if obj is not None and obj.provisional else ()
        return (*self.exclude, *hidden)


@admin.register(JobRun)
class JobRunAdmin(ReadOnlyAdmin):
    list_display = ("kind", "status", "progress_percent", "created_at", "finished_at")
    list_filter = ("kind", "status")


@admin.register(Slip)
class SlipAdmin(ReadOnlyAdmin):
    list_display = ("slip_type", "number", "table", "gaming_day", "shift", "voided")
    list_filter = ("slip_type", "voided")


@admin.register(CageFigures)
class CageFiguresAdmin(ReadOnlyAdmin):
    list_display = (
        "gaming_day",
        "shift",
        "version",
        "fills_issued",
        "credits_received",
        "entered_by",
    )
    list_filter = ("shift",)
