"""Four-eyes corrections: one person asks, a different pit boss approves or refuses."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from tables.models.floor import Table
from tables.models.rounds import Round


class CorrectionRequest(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"
        APPROVED = "approved"
        REFUSED = "refused"

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="corrections")
    round = models.ForeignKey(Round, on_delete=models.PROTECT, null=True, blank=True)
    # The engine command the approval will run, e.g. {"type": "void_round", "data": {...}}.
    command = models.JSONField()
    reason = models.TextField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    requested_at = models.DateTimeField()
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_note = models.TextField(blank=True)

    class Meta:
        ordering = ("-requested_at",)

    def __str__(self) -> str:
        return f"{self.table.name} {self.command.get('type')} ({self.status})"
