"""The registry in the admin: bindings are approved through the same four-eyes service as the
API; what a shoe sent and the link's counters are read-only; keys are never shown."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from devices.models import (
    Device,
    DeviceBinding,
    DeviceEvent,
    DeviceGap,
    DeviceIncident,
    LinkQuality,
    MisreadHold,
)
from devices.registry.enrollment import binding_approve
from tables.engine.errors import RuleError


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Device)
class DeviceAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("serial", "status", "model", "firmware_version", "port_url", "online")
    list_filter = ("status", "online")
    search_fields = ("serial",)
    exclude = ("key",)
    readonly_fields = ("status", "online", "last_heard_at", "enrolled_at", "enrolled_by")


@admin.register(DeviceBinding)
class DeviceBindingAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("device", "table", "requested_by", "approved_by", "approved_at", "ended_at")
    list_filter = ("table",)
    readonly_fields = (
        "device",
        "table",
        "requested_by",
        "requested_at",
        "approved_by",
        "approved_at",
        "ended_at",
        "ended_by",
        "end_reason",
    )
    actions = ("approve",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # bindings are asked for through device_enroll or the API

    @admin.action(description="Approve the selected bindings (four eyes)")
    def approve(self, request: HttpRequest, queryset: QuerySet[DeviceBinding]) -> None:
        for binding in queryset:
            try:
                binding_approve(binding_id=binding.pk, by=request.user)  # type: ignore[arg-type]
            except RuleError as refusal:
                self.message_user(request, f"{binding}: {refusal.message}", messages.ERROR)
            else:
                self.message_user(request, f"{binding}: approved", messages.SUCCESS)


@admin.register(DeviceEvent)
class DeviceEventAdmin(ReadOnlyAdmin):
    list_display = ("device", "boot_id", "seq", "message_type", "draw_index", "verdict", "reason")
    list_filter = ("verdict", "message_type")
    search_fields = ("device__serial",)


@admin.register(LinkQuality)
class LinkQualityAdmin(ReadOnlyAdmin):
    list_display = ("device", "frames_accepted", "duplicates", "naks_sent", "reconnects")


@admin.register(DeviceGap)
class DeviceGapAdmin(ReadOnlyAdmin):
    list_display = ("device", "boot_id", "first_missing", "last_missing", "resolved_at")


@admin.register(DeviceIncident)
class DeviceIncidentAdmin(ReadOnlyAdmin):
    list_display = ("device", "kind", "table", "occurred_at")
    list_filter = ("kind",)


@admin.register(MisreadHold)
class MisreadHoldAdmin(ReadOnlyAdmin):
    list_display = ("table", "device", "opened_at", "requested_by", "approved_by", "resolved_at")
