"""`/floor/tables/<id>/`: one table for the pit boss, its round live (face-down cards as
backs), and the table's own work: open and close with a count, the dealer, slips, the limits
and their change log, the shoe's link and binding.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from rest_framework.exceptions import APIException

from devices.models import Device, DeviceBinding, LinkQuality
from devices.registry import enrollment
from reports.denominations import table_denominations
from reports.pages.cage_queue import table_slips
from reports.renderers.labels import label
from tables import roles
from tables.engine.errors import InvalidInputError, RuleError
from tables.models import Table
from tables.pages import floor_approvals, floor_settings, floor_tiles
from tables.pages.floor_access import refusal_text, screen_for, viewer
from tables.pages.floor_counts import chips_from_form
from tables.pages.screen import table_screen
from tables.services import custody
from tables.services.custody import slips
from tables.services.custody.log import previous_closer
from tables.services.floor import dealer_assign

PIT = (roles.PIT_BOSS,)


@screen_for(*PIT)
@never_cache
def floor_table(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    return render(request, "floor/table.html", table_context(request, table))


@screen_for(*PIT)
@never_cache
def floor_table_fragment(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    return render(request, "floor/_table_live.html", table_context(request, table))


@screen_for(*PIT)
@require_POST
def floor_table_act(request: HttpRequest, table_id: int, action: str) -> HttpResponse:
    """One of the table's actions; a refusal redraws the page with the reason, nothing done."""
    table = get_object_or_404(Table, pk=table_id)
    act = ACTIONS.get(action)
    if act is None:
        return render(request, "floor/table.html", table_context(request, table), status=404)
    try:
        act(request, table)
    except (RuleError, APIException) as error:
        context = table_context(request, table) | {"refusal": refusal_text(error)}
        status = int(getattr(error, "status", getattr(error, "status_code", 409)))
        return render(request, "floor/table.html", context, status=status)
    return redirect("floor-table", table_id=table.pk)


def table_context(request: HttpRequest, table: Table) -> dict[str, Any]:
    table.refresh_from_db()
    screen = table_screen(request.user, table)
    # The pit boss watches here; the round's buttons are the dealer's, on the tablet.
    for place in screen["places"]:
        place["actions"] = []
        place["asks_amount"] = False
    screen.update(general_actions=[], actions=[], asks_card=False)
    binding = _current_binding(table)
    in_force = floor_settings.settings_in_force(table)
    return screen | {
        "tile": floor_tiles.floor_tile(table),
        "approvals": [
            (approval, approval.can_decide(viewer(request)))
            for approval in floor_approvals.approvals_queue(table_id=table.pk)
        ],
        "denominations": table_denominations(table),
        "last_closer": previous_closer(table),
        "dealers": User.objects.filter(groups__name=roles.DEALER).order_by("username"),
        "setting_fields": floor_settings.form_fields(table, in_force) if in_force else [],
        "settings_log": floor_settings.settings_log(table),
        "slips": _slips(table),
        "binding": binding,
        "link": LinkQuality.objects.filter(device=binding.device).first() if binding else None,
        "devices": Device.objects.exclude(status=Device.Status.RETIRED).order_by("serial"),
    }


def _current_binding(table: Table) -> DeviceBinding | None:
    return (
        DeviceBinding.objects.filter(table=table, ended_at__isnull=True)
        .select_related("device")
        .order_by("-requested_at")
        .first()
    )


def _slips(table: Table) -> list[dict[str, Any]]:
    """The table's latest slips, each saying whether its void already waits in the queue."""
    asked = {
        (str(approval.change["data"].get("slip_type")), approval.change["data"].get("slip_number"))
        for approval in floor_approvals.approvals_queue(table_id=table.pk)
        if approval.kind == floor_approvals.SLIP_VOID
    }
    return [
        {
            "slip": slip,
            "kind": label(slip.slip_type),
            "stage": label(slip.stage),
            "void_asked": (slip.slip_type, slip.number) in asked,
        }
        for slip in table_slips(table.pk)
    ]


def _open(request: HttpRequest, table: Table) -> None:
    carry = request.POST.get("carry") == "1"
    # The pit boss counts (or carries the last closer over by his explicit choice); the
    # table's dealer confirms the count with his own login, and the table opens then.
    custody.custody_open(
        table_id=table.pk,
        pit_boss=viewer(request),
        chips=None if carry else chips_from_form(request.POST, table),
        carry_over=carry,
    )


def _close(request: HttpRequest, table: Table) -> None:
    custody.custody_close(
        table_id=table.pk,
        pit_boss=viewer(request),
        chips=chips_from_form(request.POST, table),
    )


def _assign(request: HttpRequest, table: Table) -> None:
    dealer = User.objects.filter(
        username=request.POST.get("dealer", ""), groups__name=roles.DEALER
    ).first()
    if dealer is None:
        raise InvalidInputError("Choose a dealer from the list.", code="unknown_dealer")
    dealer_assign(table_id=table.pk, dealer=dealer, by=viewer(request))


def _slip(slip_type: str) -> Any:
    def request_slip(request: HttpRequest, table: Table) -> None:
        slips.slip_request(
            slip_type=slip_type,
            table_id=table.pk,
            amounts=chips_from_form(request.POST, table),
            pit_boss=viewer(request),
        )

    return request_slip


def _settings(request: HttpRequest, table: Table) -> None:
    floor_settings.change_settings(table=table, form=request.POST, by=viewer(request))


def _void(request: HttpRequest, table: Table) -> None:
    number = request.POST.get("slip_number", "")
    if not number.isdigit():
        raise InvalidInputError("Choose a slip from the list.", code="unknown_slip")
    floor_approvals.ask_slip_void(
        slip_type=request.POST.get("slip_type", ""),
        slip_number=int(number),
        reason=request.POST.get("reason", "").strip()[:500],
        by=viewer(request),
    )


def _bind(request: HttpRequest, table: Table) -> None:
    device = Device.objects.filter(serial=request.POST.get("device", "")).first()
    if device is None:
        raise InvalidInputError("Choose a shoe from the list.", code="unknown_device")
    enrollment.binding_request(device_id=device.pk, table_id=table.pk, by=viewer(request))


def _quarantine(request: HttpRequest, table: Table) -> None:
    binding = _current_binding(table)
    if binding is None:
        raise InvalidInputError("No shoe is bound to this table.", code="no_shoe")
    enrollment.device_quarantine(device_id=binding.device_id)


ACTIONS = {
    "open": _open,
    "close": _close,
    "assign": _assign,
    "fill": _slip("fill"),
    "credit": _slip("credit"),
    "settings": _settings,
    "void": _void,
    "bind": _bind,
    "quarantine": _quarantine,
}
