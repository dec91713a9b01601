"""A channel-layer member in a group, for tests that check what a write pushes and when."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

from channels.layers import get_channel_layer

T = TypeVar("T")


class GroupListener:
    """A channel joined to `group` on the configured layer (in-memory or Redis). Every call
    runs on the listener's own loop: the Redis layer's receive buffers belong to one loop."""

    def __init__(self, group: str) -> None:
        self.layer = get_channel_layer()
        assert self.layer is not None
        self.loop = asyncio.new_event_loop()
        self.group = group
        self.channel: str = self._run(self.layer.new_channel())
        self._run(self.layer.group_add(group, self.channel))

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(coroutine)

    def next_message(self, timeout: float) -> dict[str, Any] | None:
        """The next message the group sent this channel, or None after `timeout` seconds."""
        try:
            return dict(self._run(asyncio.wait_for(self.layer.receive(self.channel), timeout)))
        except TimeoutError:
            return None

    def next_after(self, seq: int, timeout: float) -> dict[str, Any] | None:
        """The next message about a seq past `seq`: notices of earlier commits (the test's
        own setup) may still be on their way, the queue sending them after the commit."""
        while (message := self.next_message(timeout)) is not None:
            if message.get("seq", 0) > seq:
                return message
        return None

    def leave(self) -> None:
        self._run(self.layer.group_discard(self.group, self.channel))
        self.loop.close()
