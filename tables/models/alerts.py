"""Alerts for the pit boss: projected from `alert.raised` events, acknowledged by events too."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from tables.models.floor import Table
from tables.models.log import TableEvent
from tables.models.rounds import Round


class Alert(models.Model):
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="alerts")
    round = models.ForeignKey(Round, on_delete=models.PROTECT, null=True, blank=True)
    event = models.OneToOneField(TableEvent, on_delete=models.PROTECT, related_name="alert")
    code = models.CharField(max_length=64)
    message = models.TextField()
    details = models.JSONField(default=dict)
    raised_at = models.DateTimeField()
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    acknowledged_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-raised_at",)
        indexes = [models.Index(fields=("table", "acknowledged_at"))]

    def __str__(self) -> str:
        return f"{self.table.name}: {self.code}"
