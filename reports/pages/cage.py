"""`/cage/`, the cashier: the slips waiting as they are requested, issue or receive them by
denomination, the day's series with voids and gaps, the cage's figures and the cashier report.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from reports.denominations import table_denominations
from reports.pages import cage_queue
from reports.shifts import floor_clock
from tables.engine.errors import InvalidInputError, RuleError
from tables.models import Table
from tables.pages.floor_access import refusal_text, screen_for, viewer
from tables.pages.floor_counts import chips_from_form
from tables.policy import screens
from tables.services.custody import slips

CAGE = screens.viewers("cage")


@screen_for(*CAGE)
@never_cache
def cage_home(request: HttpRequest) -> HttpResponse:
    return render(request, "cage/cage.html", cage_context())


@screen_for(*CAGE)
@never_cache
def cage_fragment(request: HttpRequest) -> HttpResponse:
    return render(request, "cage/_counter.html", cage_context())


@screen_for(*CAGE)
@require_POST
def cage_sign(request: HttpRequest, slip_type: str, number: int) -> HttpResponse:
    """Issue a fill's chips or receive a credit's, as counted by denomination: a count that
    differs from the request is refused by the service (void it and ask again)."""
    try:
        slip = cage_queue.cage_slip(slip_type, number)
        if slip is None:
            raise InvalidInputError(f"There is no {slip_type} slip {number}.", code="unknown_slip")
        slips.slip_cage_sign(
            slip_type=slip_type,
            slip_number=number,
            cashier=viewer(request),
            amounts=chips_from_form(request.POST, Table.objects.get(pk=slip.table_id)),
        )
    except RuleError as error:
        context = cage_context() | {"refusal": refusal_text(error)}
        return render(request, "cage/_counter.html", context, status=error.status)
    return render(request, "cage/_counter.html", cage_context())


def cage_context() -> dict[str, object]:
    key = floor_clock().shift_of(timezone.now())
    waiting = cage_queue.waiting_slips()
    return {
        "key": key,
        "waiting": [
            (slip, table_denominations(Table.objects.get(pk=slip.table_id))) for slip in waiting
        ],
        "series": cage_queue.day_series(key.gaming_day),
        "figures": cage_queue.cage_shift_figures(key),
    }
