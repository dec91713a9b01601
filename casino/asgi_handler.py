"""Django's ASGI handler with its middleware and views run synchronously, in one thread hop.

Every view and almost every middleware here is synchronous. Django's own ASGI handler builds the
middleware chain in async mode, so each synchronous piece is adapted on its own: each
`MiddlewareMixin` runs its `process_request` and `process_response` through `sync_to_async`, a
synchronous middleware (WhiteNoise, the policy headers) turns the chain back with
`async_to_sync`, and the view gets a hop of its own: about fifteen hand-overs between the event
loop and a worker thread per request, which measured as a large share of a command's CPU under
the production server (docs/PERFORMANCE.md, "Floor load: the request's own cost").

This handler loads the chain in sync mode, exactly as the WSGI handler does, and runs the whole
of it (middleware, view, exception handling) in one `sync_to_async` call per request. Everything
else is Django's: the request's body is read, the response sent and the client's disconnect
watched on the event loop, and the request keeps its own thread-sensitive context, so the view,
its database connection and the response's `close` (which ends the connection's request) share
one thread as before.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler
from django.http import FileResponse, HttpRequest, HttpResponseBase


class SyncStackASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)

    async def run_get_response(self, request: HttpRequest) -> HttpResponseBase:
        response: Any = await sync_to_async(self.get_response, thread_sensitive=True)(request)
        response._handler_class = self.__class__
        if isinstance(response, FileResponse):
            # As Django's own: the ASGI server does the low-level chunking.
            response.block_size = self.chunk_size
        return response  # type: ignore[no-any-return]


def sync_stack_asgi_application() -> SyncStackASGIHandler:
    """`django.core.asgi.get_asgi_application` with this handler."""
    import django

    django.setup(set_prefix=False)
    return SyncStackASGIHandler()
