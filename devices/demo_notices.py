"""The demo shoe's cards, announced to the serving process's own pages on the embedded default.

The shoe's reader (`run_shoe`) is a process of its own. With REDIS_URL its change notices reach
the server's websockets on channels-redis; on the embedded default (what `make run` uses on a
fresh machine) they stay in the reader's process, and the tablet would show the shoe's cards
only at its 15 s re-read, several at once. So beside the demo shoe the serving process watches
the table's head and announces each seq it has not seen yet, with the same "table N changed at
seq S" notice as any write, sent on the server's own event loop (the in-memory layer is bound to
it and is not safe to touch from another thread). A seq the server announced itself is
announced twice; a page ignores a notice for the state it already shows.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from typing import Any

from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.db import close_old_connections

from tables.live.groups import FLOOR_GROUP, table_group
from tables.models import Table

logger = logging.getLogger(__name__)
POLL_S = 0.25


def needed() -> bool:
    """Only where nothing else carries the reader's notices to this process's pages."""
    return not settings.REDIS_URL and isinstance(get_channel_layer(), InMemoryChannelLayer)


def server_loop() -> asyncio.AbstractEventLoop:
    """The loop `runserver` (daphne) serves on; the in-memory layer's queues live there."""
    from daphne.server import twisted_loop

    loop: asyncio.AbstractEventLoop = twisted_loop
    return loop


def table_head(table_id: int) -> Callable[[], int]:
    def head() -> int:
        try:
            seq = Table.objects.filter(pk=table_id).values_list("head_seq", flat=True).first()
        finally:
            close_old_connections()
        return int(seq or 0)

    return head


class HeadNotices(threading.Thread):
    """Announces every new head seq of one table to its pages and to the floor's."""

    def __init__(
        self,
        table_id: int,
        head: Callable[[], int],
        loop: asyncio.AbstractEventLoop,
        poll_s: float = POLL_S,
    ) -> None:
        super().__init__(daemon=True, name=f"demo-notices-{table_id}")
        self.table_id = table_id
        self.head = head
        self.loop = loop
        self.poll_s = poll_s
        self.halt = threading.Event()
        self.announced = 0

    def run(self) -> None:
        seen = self.head()
        while not self.halt.wait(self.poll_s):
            try:
                seq = self.head()
            except Exception:  # the database is busy or gone: the page's own re-read remains
                logger.warning("could not read the head of table %s", self.table_id, exc_info=True)
                continue
            if seq > seen:
                self.announce(seq)
                seen = seq

    def announce(self, seq: int) -> None:
        message = {"type": "table.changed", "table": self.table_id, "seq": seq}
        sent = asyncio.run_coroutine_threadsafe(_send(message, self.table_id), self.loop)
        sent.add_done_callback(_log_failure)
        self.announced += 1


async def _send(message: dict[str, Any], table_id: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for group in (table_group(table_id), FLOOR_GROUP):
        await layer.group_send(group, message)


def _log_failure(sent: Any) -> None:
    if not sent.cancelled() and sent.exception() is not None:
        logger.warning("could not announce a demo shoe's card", exc_info=sent.exception())
