"""The device registry: shoes, their bindings to tables, what they sent and how the line behaves.

A shoe feeds a table only while it is active, its binding to that table is approved by a pit
boss (not the person who asked for it) and its identity matches what the registry holds.
Everything a shoe sends is kept with the verdict it got, applied to a round or not.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from devices.sealed_keys import SealedKeyField
from tables.models import Alert, Table, TableEvent


class Device(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"
        ACTIVE = "active"
        QUARANTINED = "quarantined"
        RETIRED = "retired"

    serial = models.CharField(max_length=16, unique=True)
    # The identity a HELLO must match; blank fields are learned from the first accepted HELLO.
    model = models.CharField(max_length=16, blank=True)
    firmware_version = models.CharField(max_length=12, blank=True)
    firmware_hash = models.CharField(max_length=64, blank=True)
    # The shared secret for frame tags and the challenge; blank = an unkeyed shoe. Sealed in
    # the database with the field key (devices/sealed_keys.py); never shown after enrolment.
    key = SealedKeyField(blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    port_url = models.CharField(max_length=255, blank=True)
    online = models.BooleanField(default=False)
    last_heard_at = models.DateTimeField(null=True, blank=True)
    enrolled_at = models.DateTimeField()
    enrolled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ("serial",)

    def __str__(self) -> str:
        return f"{self.serial} ({self.status})"

    @property
    def keyed(self) -> bool:
        return bool(self.key)

    @property
    def key_bytes(self) -> bytes | None:
        return self.key.encode() if self.key else None


class DeviceBinding(models.Model):
    """A shoe at a table: requested by one person, approved by a different pit boss."""

    device = models.ForeignKey(Device, on_delete=models.PROTECT, related_name="bindings")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="device_bindings")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    requested_at = models.DateTimeField()
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    end_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ("-requested_at",)
        constraints = [
            models.UniqueConstraint(
                fields=("device",),
                condition=models.Q(ended_at__isnull=True),
                name="one_open_binding_per_device",
            ),
            # One shoe deals at a table: a second must wait until the first is unbound.
            models.UniqueConstraint(
                fields=("table",),
                condition=models.Q(ended_at__isnull=True, approved_at__isnull=False),
                name="one_bound_shoe_per_table",
            ),
        ]

    def __str__(self) -> str:
        state = "ended" if self.ended_at else ("approved" if self.approved_at else "pending")
        return f"{self.device.serial} → {self.table.name} ({state})"

    @property
    def current(self) -> bool:
        return self.ended_at is None and self.approved_at is not None


class DeviceEvent(models.Model):
    """One event the shoe sent, committed under (device, boot_id, seq) before it is ACKed."""

    class Verdict(models.TextChoices):
        ACCEPTED = "accepted"
        DUPLICATE = "duplicate"
        QUARANTINED = "quarantined"
        REJECTED = "rejected"
        HELD = "held"

    device = models.ForeignKey(Device, on_delete=models.PROTECT, related_name="events")
    boot_id = models.PositiveBigIntegerField()
    seq = models.PositiveIntegerField()
    message_type = models.CharField(max_length=24)
    payload = models.JSONField(default=dict)
    draw_index = models.PositiveIntegerField(null=True, blank=True)
    card = models.CharField(max_length=8, blank=True)
    physical_id = models.CharField(max_length=40, blank=True)
    verdict = models.CharField(max_length=16, choices=Verdict.choices)
    reason = models.CharField(max_length=200, blank=True)
    table = models.ForeignKey(Table, on_delete=models.PROTECT, null=True, blank=True)
    table_event = models.ForeignKey(
        TableEvent, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    received_at = models.DateTimeField()

    class Meta:
        ordering = ("device", "id")
        constraints = [
            models.UniqueConstraint(
                fields=("device", "boot_id", "seq"), name="device_event_unique_per_boot_seq"
            )
        ]
        indexes = [models.Index(fields=("device", "boot_id", "id"))]

    def __str__(self) -> str:
        return f"{self.device.serial} {self.boot_id:08x}#{self.seq} {self.message_type}"


class LinkQuality(models.Model):
    """Link counters of a shoe, summed over every reader run."""

    device = models.OneToOneField(Device, on_delete=models.PROTECT, related_name="link_quality")
    frames_accepted = models.PositiveBigIntegerField(default=0)
    rejections = models.JSONField(default=dict)
    duplicates = models.PositiveBigIntegerField(default=0)
    naks_sent = models.PositiveBigIntegerField(default=0)
    resyncs_sent = models.PositiveBigIntegerField(default=0)
    reconnects = models.PositiveBigIntegerField(default=0)
    gaps_reported = models.PositiveBigIntegerField(default=0)
    auth_failures = models.PositiveBigIntegerField(default=0)
    sessions_refused = models.PositiveBigIntegerField(default=0)
    offline_transitions = models.PositiveBigIntegerField(default=0)
    bytes_received = models.PositiveBigIntegerField(default=0)
    committed = models.PositiveBigIntegerField(default=0)
    updated_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"link quality of {self.device.serial}"


class DeviceGap(models.Model):
    """Events the shoe could not resend; rounds wait until a pit boss resolves the gap."""

    device = models.ForeignKey(Device, on_delete=models.PROTECT, related_name="gaps")
    boot_id = models.PositiveBigIntegerField()
    first_missing = models.PositiveIntegerField()
    last_missing = models.PositiveIntegerField()
    opened_at = models.DateTimeField()
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ("-opened_at",)

    def __str__(self) -> str:
        return f"{self.device.serial} gap {self.first_missing}…{self.last_missing}"


class DeviceIncident(models.Model):
    """Something the pit must know about a shoe; the table's alert points at the same fact."""

    device = models.ForeignKey(Device, on_delete=models.PROTECT, related_name="incidents")
    kind = models.CharField(max_length=40)
    message = models.TextField()
    details = models.JSONField(default=dict)
    table = models.ForeignKey(Table, on_delete=models.PROTECT, null=True, blank=True)
    alert = models.ForeignKey(Alert, on_delete=models.PROTECT, null=True, blank=True)
    # The `device.<kind>` fact on the table's log this row is projected from (none when the
    # shoe served no table).
    event = models.OneToOneField(
        TableEvent, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    occurred_at = models.DateTimeField()

    class Meta:
        ordering = ("-occurred_at", "-id")

    def __str__(self) -> str:
        return f"{self.device.serial}: {self.kind}"


class MisreadHold(models.Model):
    """A card left the shoe unidentified: the table's shoe cards wait until it is entered."""

    device = models.ForeignKey(Device, on_delete=models.PROTECT, related_name="holds")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="misread_holds")
    device_event = models.OneToOneField(DeviceEvent, on_delete=models.PROTECT, related_name="+")
    opened_at = models.DateTimeField()
    card = models.CharField(max_length=8, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("opened_at", "id")

    def __str__(self) -> str:
        return f"{self.table.name}: misread at draw {self.device_event.draw_index}"
