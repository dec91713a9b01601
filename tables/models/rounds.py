"""A round (a hand, in Stud): its number on the table and its projected state."""

from __future__ import annotations

from django.db import models

from tables.models.floor import Table


class Round(models.Model):
    """Projection of one round; the truth is the round's events in the log."""

    class Status(models.TextChoices):
        OPEN = "open"
        SETTLED = "settled"
        CLOSED = "closed"
        VOIDED = "voided"

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    # The engine's full (audit) view after the last event; never shown on live screens as is.
    state = models.JSONField(default=dict)
    last_seq = models.PositiveBigIntegerField(default=0)
    opened_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("table", "-number")
        constraints = [
            models.UniqueConstraint(fields=("table", "number"), name="round_number_unique")
        ]
        indexes = [
            models.Index(fields=("table", "status")),
            # A shift's rounds are those whose last event lies in its window of seqs: read
            # by this range, not by a filter over every round the table played.
            models.Index(fields=("table", "last_seq")),
        ]

    def __str__(self) -> str:
        return f"{self.table.name} round {self.number}"
