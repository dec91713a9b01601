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
import contextlib
import os
import queue
import threading
from collections.abc import Callable
from typing import IO, Any, TypeVar

from asgiref.sync import SyncToAsync, sync_to_async
from django import db
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse, HttpResponseBase
from django.urls import set_script_prefix

from casino.environment import env_int


class PooledSyncASGIHandler(ASGIHandler):
    def __init__(self, threads: int) -> None:
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self.threads = threads
        self._pools: dict[tuple[int, asyncio.AbstractEventLoop], RequestThreads] = {}

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        response = await self._threads().run(self.serve, scope, body_file)
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
        for threads in self._pools.values():
            threads.shutdown()
        self._pools.clear()

    def _threads(self) -> RequestThreads:
        # One set per process and loop: a forked worker, or a test's new loop, makes its own.
        loop = asyncio.get_running_loop()
        key = (os.getpid(), loop)
        threads = self._pools.get(key)
        if threads is None:
            threads = self._pools[key] = RequestThreads(self.threads, loop)
        return threads


_T = TypeVar("_T")
# A call: the future its answer goes to (none for a call no request waits for), the function,
# its arguments.
_Call = tuple[asyncio.Future[Any] | None, Callable[..., Any], tuple[Any, ...]]


class RequestThreads:
    """A fixed set of threads serving one loop's requests from one queue.

    What `loop.run_in_executor` does for each call, less its general machinery: a
    `concurrent.futures.Future` (with its own lock and condition) chained to an asyncio future
    by callbacks on both sides, and a work item. Here a call is a tuple on a queue, and its
    answer one `call_soon_threadsafe` that sets the loop's future: under the floor load that
    hand-over was about 5 % of a worker's GIL samples (docs/PERFORMANCE.md, "Around the view").
    """

    def __init__(self, count: int, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._calls: queue.SimpleQueue[_Call | None] = queue.SimpleQueue()
        # Daemon threads: they wait on the queue for good, so a process must not wait for them
        # at its exit. No request is cut short by that: each one is awaited by its request's
        # task, and the server lets those tasks finish before its loop ends.
        self._threads = [
            threading.Thread(target=self._serve, name=f"request_{n}", daemon=True)
            for n in range(count)
        ]
        for thread in self._threads:
            thread.start()

    def run(self, function: Callable[..., _T], *args: Any) -> asyncio.Future[_T]:
        future: asyncio.Future[_T] = self.loop.create_future()
        self._calls.put((future, function, args))
        return future

    def shutdown(self) -> None:
        # One closing call per thread, held at a barrier until each thread has one; then
        # one stop per thread.
        barrier = threading.Barrier(len(self._threads))
        for _ in self._threads:
            self._calls.put((None, _close_connections_at, (barrier,)))
        for _ in self._threads:
            self._calls.put(None)
        for thread in self._threads:
            thread.join()

    def _serve(self) -> None:
        _serve_for(self.loop)
        while (call := self._calls.get()) is not None:
            future, function, args = call
            try:
                result = function(*args)
            except BaseException as error:  # the awaiting request sees it, as from an executor
                self._answer(future, _fail, error)
            else:
                self._answer(future, _resolve, result)

    def _answer(
        self, future: asyncio.Future[Any] | None, settle: Callable[..., None], value: Any
    ) -> None:
        if future is None:
            return
        # RuntimeError: the loop was closed meanwhile (a test's loop that ended). No one waits
        # for the answer, and the thread must live on for the next call.
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(settle, future, value)


def _resolve(future: asyncio.Future[_T], result: _T) -> None:
    if not future.cancelled():  # the request's task was cancelled meanwhile (a shutdown)
        future.set_result(result)


def _fail(future: asyncio.Future[Any], error: BaseException) -> None:
    if not future.cancelled():
        future.set_exception(error)


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
    # A value that is not a whole number stops the server at start with the setting's name.
    configured = env_int("CASINO_REQUEST_THREADS", 0)
    if configured:
        return max(1, configured)
    pool = getattr(settings, "DATABASE_POOL_SIZE", 0)
    return max(2, pool - 2) if pool else 8


def pooled_asgi_application() -> PooledSyncASGIHandler:
    """`django.core.asgi.get_asgi_application` with this handler."""
    import django

    django.setup(set_prefix=False)
    return PooledSyncASGIHandler(request_threads())
