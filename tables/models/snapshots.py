"""Stored engine states and verified heads: what lets a command and an audit start late in a log.

An EngineSnapshot is the engine state after the event `seq`, written in the transaction of
that event. It is tied to the chain by `head_hash` (the hash of event `seq`): on read it is
used only when the log still holds that hash there. A VerifiedCheckpoint is a head that a
verification walked and found sound, with the verifier's state there; the next shift's
audit starts from it.
"""

from __future__ import annotations

from django.db import models

from tables.models.floor import Table


class EngineSnapshot(models.Model):
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    seq = models.PositiveBigIntegerField()
    head_hash = models.CharField(max_length=64)
    # The codec's version (engine number and class fingerprint): others are never decoded.
    codec_version = models.CharField(max_length=32)
    state = models.JSONField()
    taken_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=("table", "seq"), name="engine_snapshot_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}@{self.seq} ({self.codec_version})"


class VerifiedCheckpoint(models.Model):
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    seq = models.PositiveBigIntegerField()
    head_hash = models.CharField(max_length=64)
    verified_at = models.DateTimeField()
    # From where that verification walked (0: the whole log).
    verified_from_seq = models.PositiveBigIntegerField(default=0)
    # What the verifier had after event `seq` (the engine state and the custody fold's open
    # shifts, services.snapshots_checkpoints), so the next audit walks from here; None on a
    # checkpoint written before it was kept. `state_digest` ties it to `head_hash`.
    state = models.JSONField(null=True, blank=True)
    # With a database default: code from before this field still writes checkpoints.
    state_digest = models.CharField(max_length=64, blank=True, default="", db_default="")

    class Meta:
        indexes = [models.Index(fields=("table", "seq"))]

    def __str__(self) -> str:
        return f"{self.table_id}@{self.seq} verified {self.verified_at:%Y-%m-%d %H:%M}"
