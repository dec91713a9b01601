"""The production handler serves each request on one of a few long-lived threads per process:
a burst waits on the event loop for a thread, and a thread keeps its database wrapper."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.signals import request_finished, request_started
from django.db import connections

from casino.asgi_handler import PooledSyncASGIHandler, RequestThreads, request_threads
from tables.live import publisher

# No transaction of its own: the request threads read nothing a test wrote, and a
# transactional flush here would leave content types behind for the serialized shoe tests.
pytestmark = pytest.mark.django_db


@pytest.fixture
def handlers() -> Iterator[list[PooledSyncASGIHandler]]:
    made: list[PooledSyncASGIHandler] = []
    yield made
    for handler in made:
        handler.shutdown()  # the threads' connections, before the test database goes


def handler_of(made: list[PooledSyncASGIHandler], threads: int) -> PooledSyncASGIHandler:
    made.append(PooledSyncASGIHandler(threads=threads))
    return made[-1]


def scope(path: str) -> dict[str, Any]:
    return {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "headers": [(b"host", b"127.0.0.1")],
        "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 80),
    }  # fmt: skip


async def get(handler: PooledSyncASGIHandler, path: str) -> tuple[int, bytes]:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await handler(scope(path), receive, send)
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return sent[0]["status"], body


@pytest.fixture
def seen() -> Iterator[list[tuple[str, str, int]]]:
    """(signal, thread, database wrapper) for each request's start and finish."""
    record: list[tuple[str, str, int]] = []

    def started(**_: Any) -> None:
        record.append(("started", threading.current_thread().name, id(connections["default"])))

    def finished(**_: Any) -> None:
        record.append(("finished", threading.current_thread().name, id(connections["default"])))

    request_started.connect(started)
    request_finished.connect(finished)
    yield record
    request_started.disconnect(started)
    request_finished.disconnect(finished)


def test_a_burst_is_served_by_the_few_threads_and_each_keeps_its_database_wrapper(
    seen: list[tuple[str, str, int]], handlers: list[PooledSyncASGIHandler]
) -> None:
    handler = handler_of(handlers, 2)

    async def burst() -> list[tuple[int, bytes]]:
        return await asyncio.gather(*(get(handler, "/api/ready") for _ in range(12)))

    answers = asyncio.run(burst())
    assert [status for status, _ in answers] == [200] * 12
    threads = {thread for _, thread, _ in seen}
    assert len(threads) <= 2
    assert all(name.startswith("request") for name in threads)
    # Each request started and finished on the thread that served it, and a thread's
    # database wrapper is the same one from request to request.
    assert sorted(s for s, _, _ in seen) == ["finished"] * 12 + ["started"] * 12
    wrappers: dict[str, set[int]] = {}
    for _, thread, wrapper in seen:
        wrappers.setdefault(thread, set()).add(wrapper)
    assert all(len(ids) == 1 for ids in wrappers.values())


def test_a_request_thread_sends_the_in_memory_layer_s_notices_on_the_serving_loop(
    handlers: list[PooledSyncASGIHandler],
) -> None:
    handler = handler_of(handlers, 1)
    found: list[Any] = []

    def started(**_: Any) -> None:
        found.append(publisher._server_loop())

    request_started.connect(started)
    try:

        async def one() -> tuple[int, asyncio.AbstractEventLoop]:
            status, _ = await get(handler, "/api/live")
            return status, asyncio.get_running_loop()

        status, loop = asyncio.run(one())
    finally:
        request_started.disconnect(started)
    assert status == 200
    assert found == [loop]


def test_a_missing_page_is_answered_on_the_request_thread_as_before(
    handlers: list[PooledSyncASGIHandler],
) -> None:
    handler = handler_of(handlers, 1)
    status, body = asyncio.run(get(handler, "/api/no-such-thing"))
    assert status == 404
    assert b'"code": "not_found"' in body or b'"code":"not_found"' in body


def test_a_request_thread_s_answer_or_error_reaches_the_awaiting_request() -> None:
    def answer(value: int) -> tuple[int, str]:
        return value * 2, threading.current_thread().name

    def refuse() -> None:
        raise LookupError("no such table")

    async def both() -> tuple[tuple[int, str], BaseException | None]:
        threads = RequestThreads(2, asyncio.get_running_loop())
        try:
            answered = await threads.run(answer, 21)
            try:
                await threads.run(refuse)
            except LookupError as error:
                return answered, error
            return answered, None
        finally:
            threads.shutdown()

    (value, thread), error = asyncio.run(both())
    assert value == 42
    assert thread.startswith("request")
    assert isinstance(error, LookupError)
    assert str(error) == "no such table"


def test_a_request_thread_lives_on_when_its_loop_closed_before_the_answer() -> None:
    release, served_next = threading.Event(), threading.Event()

    async def leave_early() -> RequestThreads:
        threads = RequestThreads(1, asyncio.get_running_loop())
        threads.run(release.wait, 10)  # not awaited: the loop ends before the answer
        return threads

    threads = asyncio.run(leave_early())
    release.set()
    threads.run(served_next.set)  # on the same, closed, loop: its answer has nowhere to go
    try:
        assert served_next.wait(10)  # the one thread survived the first answer's closed loop
    finally:
        threads.shutdown()


def test_the_thread_count_is_the_setting_or_the_pool_less_two(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.DATABASE_POOL_SIZE = 8
    monkeypatch.delenv("CASINO_REQUEST_THREADS", raising=False)
    assert request_threads() == 6
    monkeypatch.setenv("CASINO_REQUEST_THREADS", "3")
    assert request_threads() == 3


def test_a_thread_count_that_is_not_a_number_names_the_setting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CASINO_REQUEST_THREADS", "six")
    with pytest.raises(ImproperlyConfigured, match="CASINO_REQUEST_THREADS must be a whole number"):
        request_threads()
