"""The cheaper pieces around a view answer exactly as Django's and DRF's own: the message
storage made only when used, and the JSON client's content negotiation."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import pytest
from django.contrib import messages
from django.contrib.messages import get_messages
from django.contrib.sessions.middleware import SessionMiddleware
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory
from django.utils.functional import empty
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import (
    BaseRenderer,
    BrowsableAPIRenderer,
    JSONRenderer,
    TemplateHTMLRenderer,
)
from rest_framework.request import Request

from casino.api_negotiation import JSONFirstNegotiation
from casino.middleware.messages import LazyMessageMiddleware


class CSVRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"


ACCEPTS = [
    None,
    "*/*",
    "application/json",
    "text/html",
    "application/json; indent=4",
    "text/html,application/xhtml+xml,*/*;q=0.8",
    "text/csv",
    "image/png",
]
RENDERERS = [
    [JSONRenderer, BrowsableAPIRenderer],
    [BrowsableAPIRenderer, JSONRenderer],
    [CSVRenderer, JSONRenderer],
    [TemplateHTMLRenderer],
]


def negotiated(
    negotiation: DefaultContentNegotiation,
    path: str,
    accept: str | None,
    kinds: list[type[BaseRenderer]],
) -> tuple[str, str]:
    django_request = RequestFactory().get(path)
    if accept is not None:
        django_request.META["HTTP_ACCEPT"] = accept
    request = Request(django_request)
    try:
        renderer, media_type = negotiation.select_renderer(request, [kind() for kind in kinds])
    except Exception as refusal:  # the refusal itself is compared
        return type(refusal).__name__, ""
    return type(renderer).__name__, media_type


@pytest.mark.parametrize(
    "path", ["/api/tables/1", "/api/tables/1?format=api", "/api/x?format=json"]
)
@pytest.mark.parametrize("accept", ACCEPTS)
@pytest.mark.parametrize("kinds", RENDERERS)
def test_the_json_first_negotiation_answers_as_drf_s_for_every_header(
    path: str, accept: str | None, kinds: list[type[BaseRenderer]]
) -> None:
    assert negotiated(JSONFirstNegotiation(), path, accept, kinds) == negotiated(
        DefaultContentNegotiation(), path, accept, kinds
    )


def served(view: Callable[[HttpRequest], HttpResponse], request: HttpRequest) -> HttpResponse:
    """`request` through the session and message middleware, as a page request goes."""
    SessionMiddleware(view).process_request(request)
    return cast(HttpResponse, LazyMessageMiddleware(view)(request))


def test_a_request_that_adds_no_message_makes_no_storage_and_sets_no_cookie() -> None:
    made: list[object] = []

    def view(request: HttpRequest) -> HttpResponse:
        made.append(request._messages)  # type: ignore[attr-defined]
        return HttpResponse("ok")

    response = served(view, RequestFactory().get("/api/tables/1"))
    assert response.status_code == 200
    assert "messages" not in response.cookies
    assert made[0]._wrapped is empty  # type: ignore[attr-defined]  # never made


def test_a_message_added_by_a_page_is_stored_and_read_back_as_with_django_s_middleware() -> None:
    def adds(request: HttpRequest) -> HttpResponse:
        messages.info(request, "Shift closed")
        return HttpResponse("ok")

    response = served(adds, RequestFactory().get("/floor/"))
    cookie = response.cookies["messages"].value
    assert cookie

    shown: list[str] = []

    def reads(request: HttpRequest) -> HttpResponse:
        shown.extend(str(m) for m in get_messages(request))
        return HttpResponse("ok")

    again = RequestFactory().get("/floor/")
    again.COOKIES["messages"] = cookie
    answer = served(reads, again)
    assert shown == ["Shift closed"]
    # Read, so the cookie is cleared, as Django's own middleware does.
    assert answer.cookies["messages"].value == ""
