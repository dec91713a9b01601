"""The registry in the admin: bindings are approved through the same four-eyes service as the
API; what a shoe sent and the link's counters are read-only; keys are never shown; a bound
shoe's edited configuration needs its binding approved again; no card still face down is shown
(tables.disclosure)."""

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
from devices.registry.enrollment import binding_approve, device_configure
from tables.disclosure import (
    NOTHING_HIDDEN,
    OVER,
    WITHHELD,
    Disclosure,
    RoundSecrets,
    round_is_over,
)
from tables.engine.errors import RuleError
from tables.models import Round


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

    def save_model(self, request: HttpRequest, obj: Device, form: Any, change: bool) -> None:
        if not change:
            super().save_model(request, obj, form, change)
            return
        by: Any = request.user
        renewed = device_configure(device=obj, by=by, changed=list(form.changed_data))
        if renewed is not None:
            self.message_user(
                request,
                f"{obj.serial} was reconfigured while bound to {renewed.table.name}: it feeds "
                "nothing until a pit boss approves its binding again.",
                messages.WARNING,
            )


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
    exclude = ("payload", "card", "physical_id")
    readonly_fields = ("shown_card", "shown_payload")

    @admin.display(description="card")
    def shown_card(self, event: DeviceEvent) -> Any:
        return event.card if _read_is_public(event) else WITHHELD

    @admin.display(description="payload")
    def shown_payload(self, event: DeviceEvent) -> Any:
        return (
            {**event.payload, "physical_id": event.physical_id}
            if _read_is_public(event)
            else WITHHELD
        )


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
    exclude = ("message", "details")
    readonly_fields = ("shown_message", "shown_details")

    @admin.display(description="message")
    def shown_message(self, incident: DeviceIncident) -> str:
        return _table_secrets(incident.table_id).text(incident.message)

    @admin.display(description="details")
    def shown_details(self, incident: DeviceIncident) -> Any:
        return _table_secrets(incident.table_id).shown(incident.details)


@admin.register(MisreadHold)
class MisreadHoldAdmin(ReadOnlyAdmin):
    list_display = ("table", "device", "opened_at", "requested_by", "approved_by", "resolved_at")
    exclude = ("card",)
    readonly_fields = ("shown_card",)

    @admin.display(description="card")
    def shown_card(self, hold: MisreadHold) -> Any:
        # The entered card takes the unread card's place, face down or not: shown once over.
        return hold.card if _read_is_public(hold.device_event) else WITHHELD


def _read_is_public(event: DeviceEvent) -> bool:
    """A shoe read is shown once the round it went to is over; one tied to no round of the log,
    once no round at its table is live."""
    if event.table_event is not None:
        return round_is_over(event.table_event.round)
    if event.table_id is None:
        return True
    return not Round.objects.filter(table_id=event.table_id).exclude(status__in=OVER).exists()


def _table_secrets(table_id: int | None) -> RoundSecrets:
    return Disclosure().of_live_rounds(table_id) if table_id is not None else NOTHING_HIDDEN
