"""Django's message middleware with the storage made on first use.

Django's makes a request's message storage at its start: a cookie storage and a session
storage, each reading its settings and building its signer. Only the pages add or show
messages; an API request (most of a floor's, from the dealers' tablets) never touches them, and
the storage cost about 2 % of a server worker's GIL samples under the floor load
(docs/PERFORMANCE.md, "Around the view"). Here the storage is made when something first reads
or adds a message, and an answer to a request that never did has nothing to store.
"""

from __future__ import annotations

from typing import Any

from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.messages.storage import default_storage
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject, empty


class LazyMessageMiddleware(MessageMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        request._messages = SimpleLazyObject(lambda: default_storage(request))  # type: ignore[attr-defined]

    def process_response(self, request: HttpRequest, response: Any) -> Any:
        messages = getattr(request, "_messages", None)
        if isinstance(messages, SimpleLazyObject) and _never_used(messages):
            return response  # no message was read or added: the storage was never made
        return super().process_response(request, response)


def _never_used(lazy: SimpleLazyObject) -> bool:
    # `_wrapped` stays `empty` until the lazy object is first used (django.utils.functional).
    return lazy._wrapped is empty  # type: ignore[attr-defined]
