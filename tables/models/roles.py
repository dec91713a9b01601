"""Role changes as two-person requests: one admin asks, a different admin decides."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class RoleGrant(models.Model):
    class Action(models.TextChoices):
        GRANT = "grant"
        WITHDRAW = "withdraw"

    class Status(models.TextChoices):
        PENDING = "pending"
        APPROVED = "approved"
        REFUSED = "refused"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    role = models.CharField(max_length=32)
    action = models.CharField(max_length=16, choices=Action.choices, default=Action.GRANT)
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
        return f"{self.action} {self.role} to user {self.user_id} ({self.status})"
