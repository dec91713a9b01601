"""Request bodies of the device API (answers are built by devices.reporting)."""

from __future__ import annotations

from rest_framework import serializers


class EnrollSerializer(serializers.Serializer[None]):
    serial = serializers.CharField(max_length=16)
    port_url = serializers.CharField(max_length=255, required=False, allow_blank=True, default="")
    key = serializers.CharField(max_length=128, required=False, allow_blank=True, default="")
    table_id = serializers.IntegerField(required=False, allow_null=True, default=None)


class BindingRequestSerializer(serializers.Serializer[None]):
    table_id = serializers.IntegerField()


class ReasonSerializer(serializers.Serializer[None]):
    reason = serializers.CharField(max_length=200)


class NoteSerializer(serializers.Serializer[None]):
    note = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class CardEntrySerializer(serializers.Serializer[None]):
    card = serializers.CharField(max_length=8)
