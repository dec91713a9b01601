"""Hands a change notice to the channel layer without holding up the write that made it.

With channels-redis the sends run on one long-lived event loop in a background thread: its
Redis connections stay open, so a notice costs a round trip, not a new connection, and the
request or the shoe's reader never waits for it. The in-memory layer lives on the server's
own event loop, so its sends go there (async_to_sync) and are immediate anyway.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Coroutine
from concurrent.futures import Future
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

logger = logging.getLogger(__name__)
_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_loop_pid: int | None = None


def _background_loop() -> asyncio.AbstractEventLoop:
    """One loop per process (a forked worker starts its own)."""
    global _loop, _loop_pid
    with _lock:
        if _loop is None or _loop_pid != os.getpid():
            _loop = asyncio.new_event_loop()
            _loop_pid = os.getpid()
            thread = threading.Thread(target=_loop.run_forever, name="live-notices", daemon=True)
            thread.start()
        return _loop


def _log_failure(future: Future[Any]) -> None:
    error = future.exception()
    if error is not None:
        logger.warning("could not push a change notice", exc_info=error)


Messages = list[tuple[str, dict[str, Any]]]


async def _send_all(layer: Any, messages: Messages) -> None:
    # One after the other, in order: a page hears a drawn tile before the notice after it.
    for group, message in messages:
        await layer.group_send(group, message)


def send_to_groups(groups: tuple[str, ...], message: dict[str, Any]) -> None:
    send_messages([(group, message) for group in groups])


def send_messages(messages: Messages) -> None:
    """Each (group, message) pair, in the order given."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    if isinstance(layer, InMemoryChannelLayer):
        async_to_sync(_send_all)(layer, messages)
        return
    coroutine: Coroutine[Any, Any, None] = _send_all(layer, messages)
    future = asyncio.run_coroutine_threadsafe(coroutine, _background_loop())
    future.add_done_callback(_log_failure)
