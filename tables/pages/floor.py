"""`/floor/`, the pit boss: every table as a tile, the alerts and the approvals queue, live.

The page is three fragments. The process that wrote draws the changed table's tile on commit
and pushes it to the open floors (`floor_drawing`); a notice says "table N changed", and
`floor.js` re-reads the two lists, and the tiles of the notices no pushed tile answered, in one
request for all of them.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import SafeString
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from rest_framework.exceptions import APIException

from tables.engine.errors import RuleError
from tables.pages import floor_alerts, floor_approvals, floor_drawing
from tables.pages.floor_access import refusal_text, screen_for, viewer

PIT = floor_drawing.FLOOR_VIEWERS
# The most tiles one fetch may ask for by number (a floor's worth).
MOST_TILES_ASKED = 500


@screen_for(*PIT)
@never_cache
def floor_home(request: HttpRequest) -> HttpResponse:
    # The lists are a fragment of their own, read once the tiles are on screen.
    return render(request, "floor/floor.html", {"tiles": _tiles_html()})


@screen_for(*PIT)
@never_cache
def floor_tile_fragment(request: HttpRequest, table_id: int) -> HttpResponse:
    drawn = floor_drawing.floor_html(table_ids=(table_id,))
    if not drawn:
        raise Http404
    return HttpResponse(drawn[0])


@screen_for(*PIT)
@never_cache
def floor_tiles_fragment(request: HttpRequest) -> HttpResponse:
    """The whole grid, or with `?tables=1,5,9` only those tiles, one after the other (the
    floor's coalesced fetch after several notices)."""
    asked = request.GET.get("tables")
    if asked is None:
        return render(request, "floor/_tiles.html", {"tiles": _tiles_html()})
    table_ids = _table_ids(asked)
    return HttpResponse("".join(floor_drawing.floor_html(table_ids=table_ids)) if table_ids else "")


@screen_for(*PIT)
@never_cache
def floor_lists_fragment(request: HttpRequest) -> HttpResponse:
    return render(request, "floor/_lists.html", _lists(request))


@screen_for(*PIT)
@require_POST
def floor_decide(request: HttpRequest, kind: str, approval_id: int) -> HttpResponse:
    """Approve or refuse one request; the service refuses the requester's own."""
    approve = request.POST.get("decision") == "approve"
    note = request.POST.get("note", "").strip()[:500]
    try:
        floor_approvals.approval_decide(
            kind=kind, approval_id=approval_id, viewer=viewer(request), approve=approve, note=note
        )
    except (RuleError, APIException) as error:
        return _lists_with_refusal(request, error)
    return render(request, "floor/_lists.html", _lists(request))


@screen_for(*PIT)
@require_POST
def floor_acknowledge(request: HttpRequest, alert_id: int) -> HttpResponse:
    try:
        floor_alerts.feed_acknowledge(
            alert_id=alert_id, viewer=viewer(request), note=request.POST.get("note", "")[:500]
        )
    except RuleError as error:
        return _lists_with_refusal(request, error)
    return render(request, "floor/_lists.html", _lists(request))


def _tiles_html() -> list[SafeString]:
    return floor_drawing.floor_html()


def _table_ids(asked: str) -> set[int]:
    """The table numbers of `?tables=`; anything that is not one is left out, never a 500."""
    numbers = (part.strip() for part in asked.split(",")[:MOST_TILES_ASKED])
    return {int(part) for part in numbers if part.isdigit() and len(part) < 12}


def _lists(request: HttpRequest) -> dict[str, object]:
    queue = floor_approvals.approvals_queue()
    return {
        "alerts": floor_alerts.alert_feed(),
        "approvals": [(approval, approval.can_decide(viewer(request))) for approval in queue],
    }


def _lists_with_refusal(request: HttpRequest, error: Exception) -> HttpResponse:
    context = _lists(request) | {"refusal": refusal_text(error)}
    status = int(getattr(error, "status", getattr(error, "status_code", 409)))
    return render(request, "floor/_lists.html", context, status=status)
