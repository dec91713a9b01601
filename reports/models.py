"""Background job runs that a person can follow (reports, probes)."""

from __future__ import annotations

import uuid

from django.db import models


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
