"""Hands change notices to the channel layer without holding up the write that made them.

With channels-redis, one task per process on a long-lived event loop in a background thread
sends them, in order: its Redis connections stay open, and a writer only appends to a queue
(waking the loop once, when the queue was empty), never a thread hop or a future per write;
after each send the task lingers briefly, so a stream of writes is sent in batches.
A message still queued when a newer one for the same group and table comes is dropped: the
notice says "table N changed at seq S" and the page re-reads the table as of the newest, so
under load each group hears every table's latest seq at the cost of one send, where a send
per write (four Redis round trips) fell ever further behind the writers. A batch on Redis
costs two round trips per Redis server, whatever its groups (`group_batch`).

The in-memory layer (the embedded default) lives on the server's own event loop, so its
sends go there; with no server loop (a management command, a test) they run at once.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Iterable
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from channels_redis.core import RedisChannelLayer

from tables.live.group_batch import send_batch

logger = logging.getLogger(__name__)
# How long the drain waits, after a send, for more notices to send with the next batch: the
# first notice after a quiet spell goes at once, later ones at most this late (10 ms took
# the in-process append from 510 to 670 a second; 25 and 50 ms gave no more).
LINGER_SECONDS = 0.01
Message = tuple[str, dict[str, Any]]
Messages = list[Message]


def latest_per_table(messages: Iterable[Message]) -> Messages:
    """Each (group, type, table)'s last message, in the order of those last messages, so a
    drawn tile still comes before the notice sent after it. Messages naming no table stay."""
    ordered = list(messages)
    last: dict[tuple[str, Any, Any], int] = {}
    for index, (group, message) in enumerate(ordered):
        if message.get("table") is not None:
            last[(group, message.get("type"), message["table"])] = index
    return [
        (group, message)
        for index, (group, message) in enumerate(ordered)
        if message.get("table") is None
        or last[(group, message.get("type"), message["table"])] == index
    ]


async def _send_all(layer: Any, messages: Messages) -> None:
    # One after the other, in order: a page hears a drawn tile before the notice after it.
    for group, message in messages:
        await layer.group_send(group, message)


async def _send_batch(layer: Any, messages: Messages) -> None:
    if isinstance(layer, RedisChannelLayer):
        await send_batch(layer, messages)  # the whole batch in two round trips
        return
    await _send_all(layer, messages)  # another layer: its own group_send, one by one


class _Courier:
    """The process's queue of notices and the one task on the background loop draining it."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.lock = threading.Lock()
        self.pending: Messages = []
        self.loop: asyncio.AbstractEventLoop | None = None
        self.task: asyncio.Task[None] | None = None  # held: the loop keeps only a weak one
        self.idle = threading.Event()  # clear while a drain is queued or sending
        self.idle.set()

    def post(self, layer: Any, messages: Messages) -> None:
        with self.lock:
            self.pending.extend(messages)
            if not self.idle.is_set():
                return  # the running drain takes these with its next batch
            self.idle.clear()
            if self.loop is None:
                self.loop = asyncio.new_event_loop()
                run = self.loop.run_forever
                threading.Thread(target=run, name="live-notices", daemon=True).start()
            loop = self.loop
        loop.call_soon_threadsafe(self._start, layer)

    def _start(self, layer: Any) -> None:
        self.task = asyncio.get_running_loop().create_task(self._drain(layer))

    async def _drain(self, layer: Any) -> None:
        while True:
            with self.lock:
                batch, self.pending = self.pending, []
                if not batch:
                    self.idle.set()
                    return
            try:
                await _send_batch(layer, latest_per_table(batch))
            except Exception:  # a lost notice loses no fact: pages re-read on reconnect
                logger.warning("could not push %s change notice(s)", len(batch), exc_info=True)
            # Under a stream of writes, the next batch gathers what comes in a short while:
            # each wake-up of this thread takes the interpreter from the writers.
            await asyncio.sleep(LINGER_SECONDS)


_courier = _Courier()
# A forked worker has none of its parent's threads: it starts its own loop, queue and lock.
os.register_at_fork(after_in_child=_courier.reset)
_private_loops = threading.local()


def wait_until_sent(timeout: float) -> bool:
    """Waits until every notice this process queued has gone to the channel layer, at most
    `timeout` seconds; answers whether they all did. A stopping worker calls it so its last
    writes' notices are not lost with the drain's thread; a listener that must hear only what
    comes after some writes calls it before it joins."""
    return _courier.idle.wait(timeout)


def send_to_groups(groups: tuple[str, ...], message: dict[str, Any]) -> None:
    send_messages([(group, message) for group in groups])


def send_messages(messages: Messages) -> None:
    """Each (group, message) pair, in the order given (a superseded one may be dropped)."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    if not isinstance(layer, InMemoryChannelLayer):
        _courier.post(layer, messages)
        return
    if _server_loop() is not None:
        async_to_sync(_send_all)(layer, messages)
        return
    # No loop anywhere: async_to_sync would start a thread and a loop for every write. And
    # no loop means no consumer running here: a group without members (most of them, in a
    # management command) is skipped without one.
    listened = [(group, message) for group, message in messages if layer.groups.get(group)]
    if not listened:
        return
    loop = getattr(_private_loops, "loop", None)
    if loop is None:
        loop = _private_loops.loop = asyncio.new_event_loop()
    loop.run_until_complete(_send_all(layer, listened))


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop this thread's sync code was called from (asgiref's record), if running."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        pass
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    loop: asyncio.AbstractEventLoop | None = getattr(
        SyncToAsync.threadlocal, "main_event_loop", None
    )
    return loop if loop is not None and loop.is_running() else None
