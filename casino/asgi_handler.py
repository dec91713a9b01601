"""Django's ASGI handler with the synchronous stack run on a few long-lived request threads.

Every view and almost every middleware here is synchronous. Django's own ASGI handler builds the
middleware chain in async mode (each synchronous piece adapted on its own: about fifteen
hand-overs between the event loop and a thread per request), and it serves each request in a
`ThreadSensitiveContext`: a new thread, made and joined per request, and with it a new database
wrapper, since a connection belongs to the context that opened it. Under the production server
those took most of a command's CPU, more than the view itself (docs/PERFORMANCE.md, "Floor load:
the request's own cost" and "Long-lived request threads").

This handler loads the chain in sync mode, exactly as the WSGI handler does, and serves a request
in one call on a fixed pool of threads per process, as a threaded WSGI server does: the request's
start, its middleware and view, and (for a response with its body in memory, every one this
service makes) its close, so `request_finished` hands the thread's connection back in the thread
that used it. The body is read and the answer sent on the event loop. A thread keeps its own
context between requests, so its database wrapper (and the statements it keeps) is made once.
The pool is bounded: under a burst requests wait on the loop for a thread, not in threads for a
database connection (the pool's size follows `DATABASE_POOL_SIZE`, see casino/settings.py).
"""

from __future__ import annotations

import asyncio
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import IO, Any

from asgiref.sync import SyncToAsync, sync_to_async
from django import db
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse, HttpResponseBase
from django.urls import set_script_prefix


class PooledSyncASGIHandler(ASGIHandler):
    def __init__(self, threads: int) -> None:
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self.threads = threads
        self._pools: dict[tuple[int, asyncio.AbstractEventLoop], ThreadPoolExecutor] = {}

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        loop = asyncio.get_running_loop()
        response = await loop.run_in_executor(self._pool(loop), self.serve, scope, body_file)
        try:
            await self.send_response(response, send)
        except asyncio.CancelledError:
            pass  # the client went away while the answer was being sent
        finally:
            if response.streaming:
                await sync_to_async(response.close)()
                body_file.close()

    def serve(self, scope: dict[str, Any], body_file: IO[bytes]) -> HttpResponseBase:
        """One request, start to close, on a request thread."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__  # type: ignore[attr-defined]
        assert response is not None
        if isinstance(response, FileResponse):
            # As Django's own: the ASGI server does the low-level chunking.
            response.block_size = self.chunk_size
        if response.streaming:
            # Only static files stream here (WhiteNoise), and they read no database: the
            # thread's connection goes back now; the file is closed after it is sent.
            db.close_old_connections()
        else:
            response.close()  # request_finished, in the thread whose connection it ends
            body_file.close()
        return response

    def shutdown(self) -> None:
        """Close every request thread's database connections and end the threads (a test's
        handler; a server's process ends with its threads)."""
        for pool in self._pools.values():
            # One task per thread, held at a barrier until each thread has one.
            barrier = threading.Barrier(self.threads)

            for _ in range(self.threads):
                pool.submit(_close_connections_at, barrier)
            pool.shutdown(wait=True)
        self._pools.clear()

    def _pool(self, loop: asyncio.AbstractEventLoop) -> ThreadPoolExecutor:
        # One pool per process and loop: a forked worker, or a test's new loop, makes its own.
        key = (os.getpid(), loop)
        pool = self._pools.get(key)
        if pool is None:
            pool = self._pools[key] = ThreadPoolExecutor(
                self.threads, "request", initializer=_serve_for, initargs=(loop,)
            )
        return pool


def _close_connections_at(barrier: threading.Barrier) -> None:
    barrier.wait(timeout=10)
    db.connections.close_all()


def _serve_for(loop: asyncio.AbstractEventLoop) -> None:
    """Record, in a new request thread, the loop it serves, as asgiref records it for its own
    threads: `async_to_sync` in a view (the in-memory channel layer's sends) then runs on the
    server's loop, where that layer's consumers are, instead of a loop of its own."""
    SyncToAsync.threadlocal.main_event_loop = loop
    SyncToAsync.threadlocal.main_event_loop_pid = os.getpid()


def request_threads() -> int:
    """Threads per process: one per pooled connection, less the ones kept for the websocket
    consumers' reads, so no request waits inside a thread for a connection."""
    configured = os.environ.get("CASINO_REQUEST_THREADS")
    if configured:
        return max(1, int(configured))
    pool = getattr(settings, "DATABASE_POOL_SIZE", 0)
    return max(2, pool - 2) if pool else 8


def pooled_asgi_application() -> PooledSyncASGIHandler:
    """`django.core.asgi.get_asgi_application` with this handler."""
    import django

    django.setup(set_prefix=False)
    return PooledSyncASGIHandler(request_threads())
