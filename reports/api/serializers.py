"""Request and response shapes of the reports API. Amounts pass through untouched: the
custody rules, not the serializer, decide what a valid amount is (with their own codes)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import serializers

from reports import kinds
from reports.models import CageFigures, JobRun, Report
from tables.models import TableEvent


def bounded_total(value: Any, maximum: int, what: str) -> Any:
    """Refuse an amount (or amounts by denomination) past a floor-wide maximum; anything else
    passes untouched to the custody rules, which refuse it with their own codes."""
    amounts = value.values() if isinstance(value, dict) else [value]
    whole = [a for a in amounts if isinstance(a, int) and not isinstance(a, bool)]
    if sum(whole) > maximum:
        raise serializers.ValidationError(f"{what} may be at most {maximum} on this floor.")
    return value


class ChipCountSerializer(serializers.Serializer[None]):
    chips = serializers.DictField(child=serializers.JSONField(), required=False, allow_null=True)
    # Without a count, the pit boss must say so to carry the last closer over.
    carry_over = serializers.BooleanField(required=False, default=False)


class CloserSerializer(serializers.Serializer[None]):
    chips = serializers.DictField(child=serializers.JSONField())


class SlipRequestSerializer(serializers.Serializer[None]):
    amounts = serializers.DictField(child=serializers.JSONField())
    # The floor-wide maximum of the slip's type (a fill or a credit).
    maximum_setting = "CASINO_MAX_FILL"

    def validate_amounts(self, value: Any) -> Any:
        return bounded_total(value, getattr(settings, self.maximum_setting), "A slip's total")


class CreditRequestSerializer(SlipRequestSerializer):
    maximum_setting = "CASINO_MAX_CREDIT"


class SlipStepSerializer(serializers.Serializer[None]):
    amounts = serializers.DictField(
        child=serializers.JSONField(),
        required=False,
        help_text="What was counted: what the pit requested. Leave out to sign as requested.",
    )


class VoidSerializer(serializers.Serializer[None]):
    reason = serializers.CharField(max_length=2000)


class AmountSerializer(serializers.Serializer[None]):
    amount = serializers.JSONField()

    def validate_amount(self, value: Any) -> Any:
        return bounded_total(value, settings.CASINO_MAX_BUY_IN, "A buy-in")


class DropSerializer(AmountSerializer):
    gaming_day = serializers.DateField(required=False)
    shift = serializers.CharField(required=False, max_length=32)

    def validate_amount(self, value: Any) -> Any:
        return bounded_total(value, settings.CASINO_MAX_DROP, "A counted drop")


class CageFiguresSerializer(serializers.Serializer[None]):
    gaming_day = serializers.DateField()
    shift = serializers.CharField()
    fills_issued = serializers.JSONField()
    credits_received = serializers.JSONField()
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)

    def validate_fills_issued(self, value: Any) -> Any:
        return bounded_total(value, settings.CASINO_MAX_CAGE_FIGURE, "The fills issued")

    def validate_credits_received(self, value: Any) -> Any:
        return bounded_total(value, settings.CASINO_MAX_CAGE_FIGURE, "The credits received")


class CageFiguresOutSerializer(serializers.ModelSerializer[CageFigures]):
    entered_by: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="username", read_only=True
    )

    class Meta:
        model = CageFigures
        fields = (
            "gaming_day",
            "shift",
            "version",
            "fills_issued",
            "credits_received",
            "entered_by",
            "entered_at",
            "reason",
        )


class CustodyEventSerializer(serializers.Serializer[TableEvent]):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    payload = serializers.JSONField()
    hash = serializers.CharField()


class ReportSerializer(serializers.ModelSerializer[Report]):
    # Plain text in the schema: another component's "kind" enum would collide with this one.
    kind = serializers.CharField(read_only=True)
    # A floor-wide report (cashier, floor summary, audit) has no table.
    table: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="name", read_only=True, allow_null=True
    )
    downloads = serializers.SerializerMethodField()

    class Meta:
        model = Report
        fields: tuple[str, ...] = (
            "id",
            "kind",
            "gaming_day",
            "shift",
            "table",
            "version",
            "reprint",
            "provisional",
            "watermark",
            "content_hash",
            "created_at",
            "downloads",
        )

    def get_downloads(self, report: Report) -> dict[str, str]:
        return {fmt: f"/api/reports/{report.pk}/download/{fmt}" for fmt in ("json", "csv", "pdf")}


class ReportDetailSerializer(ReportSerializer):
    document = serializers.JSONField()

    class Meta(ReportSerializer.Meta):
        fields = (*ReportSerializer.Meta.fields, "document")


class RunRequestSerializer(serializers.Serializer[None]):
    kind = serializers.CharField(help_text="a report kind: table_shift, floor_summary, cashier, …")
    gaming_day = serializers.DateField()
    shift = serializers.CharField(max_length=32)
    table = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    reprint = serializers.BooleanField(default=False)
    allow_provisional = serializers.BooleanField(default=True)

    def validate_kind(self, value: str) -> str:
        if value not in kinds.keys():  # noqa: SIM118 - the registry, not a dict
            raise serializers.ValidationError(f"{value!r} is not a kind of report.")
        return value


class JobRunSerializer(serializers.ModelSerializer[JobRun]):
    class Meta:
        model = JobRun
        fields = (
            "id",
            "kind",
            "status",
            "progress_percent",
            "detail",
            "created_at",
            "started_at",
            "finished_at",
        )
