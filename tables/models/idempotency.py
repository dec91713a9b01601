"""The first answer to every write that carried an Idempotency-Key, to replay on a retry."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class IdempotencyRecord(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=200)
    # SHA-256 of method, path and canonical body: the same key with another body is refused.
    fingerprint = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField(null=True)
    body = models.JSONField(null=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=("user", "key"), name="idempotency_key_unique_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key}"
