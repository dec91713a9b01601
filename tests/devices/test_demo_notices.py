"""The demo shoe's cards are announced on the server's own loop when nothing else carries them."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from channels.layers import get_channel_layer

from devices.demo_notices import HeadNotices, needed
from tables.live.groups import FLOOR_GROUP, table_group

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
TABLE = 7


@pytest.fixture
def loop(settings: Any) -> Iterator[asyncio.AbstractEventLoop]:
    """A server's loop: the layer's queues are bound to it, the notices are sent on it."""
    settings.CHANNEL_LAYERS = IN_MEMORY
    running = asyncio.new_event_loop()
    thread = threading.Thread(target=running.run_forever, daemon=True)
    thread.start()
    yield running
    running.call_soon_threadsafe(running.stop)
    thread.join(timeout=5)
    running.close()


def _on(loop: asyncio.AbstractEventLoop, coroutine: Any) -> Any:
    return asyncio.run_coroutine_threadsafe(asyncio.wait_for(coroutine, 5), loop).result()


async def _listen(group: str) -> str:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    return str(channel)


def test_each_new_head_is_announced_once_to_the_table_and_the_floor(
    loop: asyncio.AbstractEventLoop,
) -> None:
    layer = get_channel_layer()
    table_channel = _on(loop, _listen(table_group(TABLE)))
    floor_channel = _on(loop, _listen(FLOOR_GROUP))
    head = [3]  # the table's head when the server starts: already shown, not announced
    notices = HeadNotices(TABLE, lambda: head[0], loop, poll_s=0.01)
    notices.start()
    try:
        for seq in (4, 6):
            head[0] = seq  # the reader's process committed a card
            for channel in (table_channel, floor_channel):
                message = _on(loop, layer.receive(channel))
                assert message == {"type": "table.changed", "table": TABLE, "seq": seq}
        with pytest.raises(TimeoutError):
            _on(
                loop, asyncio.wait_for(layer.receive(table_channel), 0.3)
            )  # nothing new, nothing sent
    finally:
        notices.halt.set()
        notices.join(timeout=5)
    assert notices.announced == 2


def test_a_failing_read_is_skipped_and_the_watch_goes_on(loop: asyncio.AbstractEventLoop) -> None:
    layer = get_channel_layer()
    channel = _on(loop, _listen(table_group(TABLE)))
    reads: Iterator[int | Exception] = iter([1, RuntimeError("database is locked"), 2])

    def head() -> int:
        value = next(reads, 2)
        if isinstance(value, Exception):
            raise value
        return value

    notices = HeadNotices(TABLE, head, loop, poll_s=0.01)
    notices.start()
    try:
        assert _on(loop, layer.receive(channel))["seq"] == 2
    finally:
        notices.halt.set()
        notices.join(timeout=5)


def test_only_the_embedded_default_needs_it(settings: Any) -> None:
    settings.CHANNEL_LAYERS = IN_MEMORY
    settings.REDIS_URL = ""
    assert needed()
    settings.REDIS_URL = "redis://127.0.0.1:6379/4"
    assert not needed()
