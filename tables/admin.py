"""The admin: configuration is editable; the log and its projections are read-only, and no page
shows a card that is still face down (tables.disclosure): an event's payload and a round's
state appear once the round is over, alerts and corrections with hidden cards taken out."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tables import admin_accounts  # noqa: F401 - accounts, groups and tokens
from tables.disclosure import WITHHELD, event_payload_shown, round_is_over, secrets_of
from tables.models import Alert, CorrectionRequest, DealerAssignment, Round, Seat, Table, TableEvent


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Rows written only by the services: viewable, never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(TableEvent)
class TableEventAdmin(ReadOnlyAdmin):
    list_display = ("table", "seq", "type", "source", "actor", "recorded_at", "short_hash")
    list_filter = ("table", "source", "type")
    search_fields = ("type", "hash")
    ordering = ("table", "-seq")
    exclude = ("payload",)
    readonly_fields = ("shown_payload",)

    @admin.display(description="payload")
    def shown_payload(self, event: TableEvent) -> Any:
        return event_payload_shown(event)

    @admin.display(description="hash")
    def short_hash(self, event: TableEvent) -> str:
        return event.hash[:12]


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("table", "number", "status", "opened_at", "closed_at")
    list_filter = ("table", "status")
    exclude = ("state",)
    readonly_fields = ("shown_state",)

    @admin.display(description="state")
    def shown_state(self, round_: Round) -> Any:
        return round_.state if round_is_over(round_) else WITHHELD


@admin.register(Alert)
class AlertAdmin(ReadOnlyAdmin):
    list_display = ("table", "code", "raised_at", "acknowledged_by", "acknowledged_at")
    list_filter = ("code", "table")
    exclude = ("message", "details")
    readonly_fields = ("shown_message", "shown_details")

    @admin.display(description="message")
    def shown_message(self, alert: Alert) -> str:
        return secrets_of(alert.round).text(alert.message)

    @admin.display(description="details")
    def shown_details(self, alert: Alert) -> Any:
        return secrets_of(alert.round).shown(alert.details)


@admin.register(CorrectionRequest)
class CorrectionRequestAdmin(ReadOnlyAdmin):
    list_display = ("table", "status", "requested_by", "decided_by", "requested_at")
    list_filter = ("status",)
    exclude = ("command", "reason")
    readonly_fields = ("shown_command", "shown_reason")

    @admin.display(description="command")
    def shown_command(self, correction: CorrectionRequest) -> Any:
        return secrets_of(correction.round).shown(correction.command)

    @admin.display(description="reason")
    def shown_reason(self, correction: CorrectionRequest) -> str:
        return secrets_of(correction.round).text(correction.reason)


@admin.register(DealerAssignment)
class DealerAssignmentAdmin(ReadOnlyAdmin):
    list_display = ("dealer", "table", "started_at", "ended_at")


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Seat
    extra = 0
    readonly_fields = ("number", "player_label", "stack", "pending_chips")
    can_delete = False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Tables are created through the API (their settings are checked by the game engine)."""

    list_display = ("name", "game", "status", "seat_count", "head_seq")
    readonly_fields = ("name", "game", "status", "seat_count", "settings", "head_seq", "head_hash")
    inlines = (SeatInline,)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
