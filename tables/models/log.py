"""TableEvent: the append-only, hash-chained log every table fact is written to.

The database refuses UPDATE and DELETE on this table (triggers in migration 0003); a
correction is a new event. `hash = SHA-256(prev_hash ‖ canonical JSON)`, see docs/event-log.md.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.fields.json import KeyTransform

from tables.engine.custody.codec import CUSTODY_TYPES
from tables.models.floor import Table
from tables.models.rounds import Round


class TableEvent(models.Model):
    class Source(models.TextChoices):
        TABLET = "tablet"
        SHOE = "shoe"
        SYSTEM = "system"

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="events")
    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, related_name="events", null=True, blank=True
    )
    seq = models.PositiveBigIntegerField()
    type = models.CharField(max_length=64)
    payload = models.JSONField(default=dict)
    schema_version = models.PositiveSmallIntegerField(default=1)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    source = models.CharField(max_length=16, choices=Source.choices)
    occurred_at = models.DateTimeField()
    recorded_at = models.DateTimeField()
    # None and "" differ in the hashed form: None means the request carried no key.
    idempotency_key = models.CharField(max_length=200, null=True, blank=True)  # noqa: DJ001
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64, unique=True)

    class Meta:
        ordering = ("table", "seq")
        constraints = [
            # The backstop against two writers racing on one table: a duplicate seq cannot land.
            models.UniqueConstraint(fields=("table", "seq"), name="event_seq_unique_per_table"),
        ]
        indexes = [
            models.Index(fields=("round", "seq")),
            # With seq: a type's latest (the last opener, the last closer) is one probe from
            # the end, and a type's rows come in log order, whatever the table's age.
            models.Index(fields=("table", "type", "seq"), name="event_type_by_seq"),
            models.Index(fields=("recorded_at",)),
            # A shift's custody facts, a few among thousands of engine events, by the gaming
            # day and shift their payloads name (as the ORM's `payload__gaming_day=` compares
            # them: the JSON value, `->`). Without it a shift's read went through every shift's
            # rows of its types. Partial on the custody types: an engine event's append does
            # not write it, and a query naming all or some of those types implies the condition.
            models.Index(
                F("table"),
                KeyTransform("gaming_day", "payload"),
                KeyTransform("shift", "payload"),
                name="event_custody_by_shift",
                condition=Q(type__in=CUSTODY_TYPES),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}#{self.seq} {self.type}"
