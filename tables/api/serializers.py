"""Input and output shapes of the table API (no business logic here)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import serializers

from tables.disclosure import secrets_of
from tables.models import Alert, CorrectionRequest, Seat, Table, TableEvent


class TableSerializer(serializers.ModelSerializer[Table]):
    class Meta:
        model = Table
        fields = ("id", "name", "game", "status", "seat_count", "settings", "head_seq")


class SeatSerializer(serializers.ModelSerializer[Seat]):
    player = serializers.CharField(source="player_label")

    class Meta:
        model = Seat
        fields = ("number", "player", "stack", "pending_chips")


# Bounds that keep every figure inside the database's 64-bit integers; no table comes near.
MAX_SEAT = 64
MAX_CHIPS = 10**12


class SeatPlayerSerializer(serializers.Serializer[None]):
    seat = serializers.IntegerField(min_value=1, max_value=MAX_SEAT)
    player = serializers.CharField(max_length=64)
    buy_in = serializers.IntegerField(min_value=1, max_value=settings.CASINO_MAX_BUY_IN)


class AddChipsSerializer(serializers.Serializer[None]):
    seat = serializers.IntegerField(min_value=1, max_value=MAX_SEAT)
    amount = serializers.IntegerField(min_value=1, max_value=settings.CASINO_MAX_BUY_IN)


class LeaveSerializer(serializers.Serializer[None]):
    seat = serializers.IntegerField(min_value=1, max_value=MAX_SEAT)


class TableCreateSerializer(serializers.Serializer[None]):
    name = serializers.CharField(max_length=64)
    game = serializers.ChoiceField(choices=Table.Game.choices)
    seat_count = serializers.IntegerField(min_value=1, max_value=10)
    settings = serializers.DictField(required=False, default=dict)


class CommandSerializer(serializers.Serializer[None]):
    type = serializers.CharField(max_length=64)
    # The metaclass takes declared fields off the class, so `.data` keeps working.
    data = serializers.DictField(required=False, default=dict)  # type: ignore[assignment]


class EventSerializer(serializers.ModelSerializer[TableEvent]):
    round = serializers.IntegerField(source="round.number", allow_null=True, default=None)
    actor = serializers.CharField(source="actor.username", allow_null=True, default=None)

    class Meta:
        model = TableEvent
        fields = (
            "seq", "round", "type", "payload", "schema_version", "actor", "source",
            "occurred_at", "recorded_at", "idempotency_key", "prev_hash", "hash",
        )  # fmt: skip


class AppendedEventSerializer(serializers.ModelSerializer[TableEvent]):
    """What a write returns about its events: no payload, which may hold a face-down card."""

    class Meta:
        model = TableEvent
        fields = ("seq", "type")


class CorrectionRequestSerializer(serializers.Serializer[None]):
    command = CommandSerializer()
    reason = serializers.CharField(max_length=2000)


class CorrectionDecisionSerializer(serializers.Serializer[None]):
    note = serializers.CharField(max_length=2000, required=False, default="", allow_blank=True)


class CorrectionSerializer(serializers.ModelSerializer[CorrectionRequest]):
    table = serializers.CharField(source="table.name")
    round = serializers.IntegerField(source="round.number", allow_null=True, default=None)
    requested_by = serializers.CharField(source="requested_by.username")
    decided_by = serializers.CharField(source="decided_by.username", allow_null=True, default=None)

    class Meta:
        model = CorrectionRequest
        fields = (
            "id", "table", "round", "command", "reason", "status", "requested_by",
            "requested_at", "decided_by", "decided_at", "decision_note",
        )  # fmt: skip


class AlertSerializer(serializers.ModelSerializer[Alert]):
    table = serializers.CharField(source="table.name")
    round = serializers.IntegerField(source="round.number", allow_null=True, default=None)
    acknowledged_by = serializers.CharField(
        source="acknowledged_by.username", allow_null=True, default=None
    )

    class Meta:
        model = Alert
        fields = (
            "id", "table", "round", "code", "message", "details", "raised_at",
            "acknowledged_by", "acknowledged_at",
        )  # fmt: skip

    def to_representation(self, instance: Alert) -> dict[str, Any]:
        """An alert of a live round names no card that is still face down (the disclosure
        rule); once the round is closed the auditor reads it as raised."""
        shown = super().to_representation(instance)
        secrets = secrets_of(instance.round)
        shown["message"] = secrets.text(str(shown["message"]))
        shown["details"] = secrets.shown(shown["details"])
        return shown


class AssignDealerSerializer(serializers.Serializer[None]):
    dealer = serializers.CharField(max_length=150)
