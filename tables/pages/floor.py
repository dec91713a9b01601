"""`/floor/`, the pit boss: every table as a tile, the alerts and the approvals queue, live.

The page is three fragments. A push says only "table N changed"; `floor.js` re-reads that
table's tile and the two lists, so what the pit boss sees comes from these reads alone.
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from rest_framework.exceptions import APIException

from tables import roles
from tables.engine.errors import RuleError
from tables.models import Table
from tables.pages import floor_alerts, floor_approvals, floor_tiles
from tables.pages.floor_access import refusal_text, screen_for, viewer

PIT = (roles.PIT_BOSS,)


@screen_for(*PIT)
@never_cache
def floor_home(request: HttpRequest) -> HttpResponse:
    return render(request, "floor/floor.html", _lists(request) | {"tiles": _tiles_html()})


@screen_for(*PIT)
@never_cache
def floor_tile_fragment(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    return render(request, "floor/_tile.html", {"tile": floor_tiles.floor_tile(table)})


@screen_for(*PIT)
@never_cache
def floor_tiles_fragment(request: HttpRequest) -> HttpResponse:
    return render(request, "floor/_tiles.html", {"tiles": _tiles_html()})


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


def _tiles_html() -> list[str]:
    """Every tile's HTML. A tile is drawn again only when something it shows has changed: the
    drawing is cached under a digest of the tile's data and the language."""
    tiles = floor_tiles.floor_tiles()
    language = get_language() or ""
    keys = [
        "floor:tile-html:" + hashlib.sha256(f"{language}|{tile!r}".encode()).hexdigest()
        for tile in tiles
    ]
    found = cache.get_many(keys)
    drawn = {}
    for key, tile in zip(keys, tiles, strict=True):
        if key not in found:
            drawn[key] = render_to_string("floor/_tile.html", {"tile": tile})
    if drawn:
        cache.set_many(drawn, floor_tiles.TILE_CACHE_SECONDS)
    # Safe: every string was drawn by our own template, with its own escaping.
    return [mark_safe(found.get(key) or drawn[key]) for key in keys]


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
