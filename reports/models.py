"""Job runs a person can follow, the slip series of the cage, the cage's own figures, and the
stored reports."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models

from tables.models import Table


class JobRun(models.Model):
    """One run of a background job, with its progress, so the API can show it while it runs."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        SUCCEEDED = "succeeded"
        FAILED = "failed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(max_length=64)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    progress_percent = models.PositiveSmallIntegerField(default=0)
    detail = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
        indexes = [models.Index(fields=("kind", "status"))]

    def __str__(self) -> str:
        return f"{self.kind} {self.status} ({self.progress_percent}%)"


class SlipSeries(models.Model):
    """The last number the cage gave out for one slip type; its row is the allocation lock."""

    slip_type = models.CharField(max_length=8, primary_key=True)
    last_number = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.slip_type} slips up to {self.last_number}"


class Slip(models.Model):
    """A fill or credit slip number as given out at the pit's request, projected from its
    `custody.*` facts in the same transactions. The unique number is the series' backstop.

    ``stage`` is the last step reached (a void keeps it and sets ``voided``); ``issued_at`` is when
    the number was given out. A slip written whole (before the three steps) is ``confirmed``.
    """

    class Stage(models.TextChoices):
        REQUESTED = "requested"
        ISSUED = "issued"  # a fill's chips left the cage
        RECEIVED = "received"  # a credit's chips reached the cage
        CONFIRMED = "confirmed"

    slip_type = models.CharField(max_length=8)
    number = models.PositiveIntegerField()
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="slips")
    gaming_day = models.DateField()
    shift = models.CharField(max_length=32)
    seq = models.PositiveBigIntegerField()
    issued_at = models.DateTimeField()
    stage = models.CharField(max_length=12, choices=Stage.choices, default=Stage.CONFIRMED)
    cage_signed_at = models.DateTimeField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    voided = models.BooleanField(default=False)

    class Meta:
        ordering = ("slip_type", "number")
        constraints = [
            models.UniqueConstraint(fields=("slip_type", "number"), name="slip_number_unique")
        ]
        indexes = [
            models.Index(fields=("gaming_day", "shift")),
            # A table's slips of a shift (the audit's replay checks them): the table's slips of
            # every shift ever would be read through the table's own index.
            models.Index(fields=("table", "gaming_day", "shift"), name="slip_table_shift"),
        ]

    def __str__(self) -> str:
        return f"{self.slip_type} slip {self.number}"


class CageFigures(models.Model):
    """The cage's own totals of fills issued and credits received for one shift, as a cashier
    entered them. Never changed: a correction is the next version, with its reason."""

    gaming_day = models.DateField()
    shift = models.CharField(max_length=32)
    version = models.PositiveIntegerField()
    fills_issued = models.PositiveBigIntegerField()
    credits_received = models.PositiveBigIntegerField()
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    entered_at = models.DateTimeField()
    reason = models.TextField(blank=True, default="")

    class Meta:
        ordering = ("gaming_day", "shift", "version")
        constraints = [
            models.UniqueConstraint(
                fields=("gaming_day", "shift", "version"), name="cage_figures_version_unique"
            )
        ]

    def __str__(self) -> str:
        return f"cage figures {self.gaming_day} {self.shift} v{self.version}"


class Report(models.Model):
    """One stored version of one report; never changed after it is written.

    ``scope`` is the table's id for a table shift report and ``floor`` otherwise, so that the
    unique version constraint also holds where there is no table.
    """

    class Kind(models.TextChoices):
        TABLE_SHIFT = "table_shift"
        FLOOR_SUMMARY = "floor_summary"
        CASHIER = "cashier"
        AUDIT = "audit"
        # Period reports: the floor's totals by table and by game up to a gaming day.
        GAMING_DAY = "gaming_day"
        MONTH_TO_DATE = "month_to_date"
        YEAR_TO_DATE = "year_to_date"

    kind = models.CharField(max_length=16, choices=Kind.choices)
    gaming_day = models.DateField()
    shift = models.CharField(max_length=32)
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, null=True, blank=True, related_name="reports"
    )
    scope = models.CharField(max_length=32)
    version = models.PositiveIntegerField()
    reprint = models.BooleanField(default=False)
    provisional = models.BooleanField(default=False)
    watermark = models.JSONField(default=dict)
    content_hash = models.CharField(max_length=64)
    document = models.JSONField()
    json_bytes = models.BinaryField()
    csv_bytes = models.BinaryField()
    pdf_bytes = models.BinaryField()
    job = models.ForeignKey(
        JobRun, on_delete=models.SET_NULL, null=True, blank=True, related_name="reports"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-gaming_day", "shift", "kind", "scope", "-version")
        constraints = [
            models.UniqueConstraint(
                fields=("kind", "gaming_day", "shift", "scope", "version"),
                name="report_version_unique",
            )
        ]
        indexes = [models.Index(fields=("gaming_day", "shift", "kind"))]

    def __str__(self) -> str:
        return f"{self.kind} {self.gaming_day} {self.shift} {self.scope} v{self.version}"


class ReportRendering(models.Model):
    """One rendering of a stored report: its format, its language (empty for JSON and CSV,
    which carry the document's codes and no words), its bytes and their SHA-256. The document
    keeps one content hash; each rendering has its own. Never changed once written."""

    class Format(models.TextChoices):
        JSON = "json"
        CSV = "csv"
        PDF = "pdf"

    report = models.ForeignKey(Report, on_delete=models.PROTECT, related_name="renderings")
    format = models.CharField(max_length=8, choices=Format.choices)
    language = models.CharField(max_length=8, blank=True, default="")
    sha256 = models.CharField(max_length=64)
    content = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("report", "format", "language")
        constraints = [
            models.UniqueConstraint(
                fields=("report", "format", "language"), name="report_rendering_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.report} {self.format} {self.language or '-'}"
