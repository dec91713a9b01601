"""channels-redis's layer, with a web process's notices taken off Redis in batches.

Every socket of one web process shares one Redis key (its "!" channel), and channels-redis
takes one message off it at a time, in four round trips (put the in-flight copy back, a
blocking pop, the in-flight copy, then its removal, which the next pop waits for), each on
the server's event loop. Under the floor load that loop shares the interpreter with the
request threads, so each round trip waited for its turn: a worker read about a hundred
messages a second while its sockets were sent several hundred, the key filled up to its
capacity, the notices came seconds late and the rest were dropped (docs/PERFORMANCE.md,
"Notices under load").

Here one pipeline does what those four did, for every message waiting, up to
`RECEIVE_BATCH`: a script moving them to the take's in-flight copy, or, when the last take
found the key quiet, a blocking pop of the first and the script for the ones behind it; the
copy, once its messages are in their sockets' buffers, is removed at the head of the next
take's pipeline. So a take is one round trip on a busy floor and a quiet one alike (two when
a busy key falls quiet). Each take has a copy of its own (`_Takes`): after
a take cancelled on its way, whether or not its pipeline reached Redis, the next one knows
which copy holds only delivered messages (removed) and which may hold messages no socket has
(put back in front of the key).
A cancelled receive that was not told so ends between two empty takes (below).
Everything else is channels-redis's own: the receive lock among the process's sockets,
each socket's buffer, the serialization, the script that puts a copy back.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from channels_redis.core import RedisChannelLayer

# Messages taken off the process's key in one round trip, at most. A notice batch sends a
# process one message per socket it has in the groups (a tablet, the floor pages): a few
# batches' worth, and a socket's buffer holds `capacity` before it drops its oldest.
RECEIVE_BATCH = 200
# A process's takes start at least this far apart. A take is a Redis round trip and a turn of
# the web worker's loop, and on a busy floor every process has a floor page hearing every
# table, so a process took almost once per change: the takes were about a sixth of a
# worker's CPU. Spacing them lets what comes meanwhile share one take. A notice waits at
# most this much longer; a floor page's frames are held longer than this anyway
# (FloorConsumer.hold_seconds).
TAKE_SPACING_SECONDS = 0.01

# KEYS: the process's channel key and its in-flight copy. ARGV: how many to take, and the
# copy's lifetime (a message's: a copy left by a process that died goes with its messages).
# ZPOPMIN answers member, score, member, score...: the copy keeps each message's score.
TAKE_WAITING = """
local taken = redis.call('ZPOPMIN', KEYS[1], ARGV[1])
for i = 1, #taken, 2 do
    redis.call('ZADD', KEYS[2], taken[i + 1], taken[i])
end
if #taken > 0 then
    redis.call('EXPIRE', KEYS[2], ARGV[2])
end
return taken
"""
# channels-redis's own: the in-flight copy left by a cancelled receive goes back in front.
PUT_BACK_IN_FLIGHT = """
local backed_up = redis.call('ZRANGE', ARGV[2], 0, -1, 'WITHSCORES')
for i = #backed_up, 1, -2 do
    redis.call('ZADD', ARGV[1], backed_up[i], backed_up[i - 1])
end
redis.call('DEL', ARGV[2])
"""

Received = tuple[str | list[str], dict[str, Any]]


@dataclass
class _Takes:
    """A process key's takes, each with an in-flight copy of its own (named by its number)."""

    number: int = 0  # the last take's
    # Whether messages were waiting at the last take (it found some without waiting, or more
    # than the one its blocking pop took): then the next take moves them all to its copy
    # without a pop, so a cancelled take loses none, and waits in a pop only if none is left.
    busy: bool = True
    # The last take whose answer was read, if its copy holds messages: all in their sockets'
    # buffers now, so the next take removes the copy.
    delivered: int | None = None
    # Takes cancelled on their way: each one's pipeline may or may not have reached Redis,
    # so its copy may hold messages no socket has. The next take puts them back in front.
    unread: list[int] = field(default_factory=list)
    # When the last take's answer was read (the loop's clock), for the spacing.
    answered_at: float = float("-inf")


def _stop_if_cancelled_unawares() -> None:
    """End a receive whose cancellation was lost on the way to it.

    Python 3.11's `asyncio.wait_for` returns its awaitable's result and drops the caller's
    cancellation when both come in the same turn of the loop, and the Redis client waits for
    its writes through it: a receive cancelled then (a socket closing, a `wait_for` around
    it) goes on waiting for messages as if nothing happened, holding the process's receive
    lock, and whoever cancelled it waits for it forever. The task still counts the request
    (`cancelling()`), so it is honoured here, between two waits that took nothing."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


async def _spaced(takes: _Takes) -> None:
    """Wait until TAKE_SPACING_SECONDS have passed since the last take was answered. Nothing
    is taken yet: a receive cancelled here loses nothing."""
    wait = takes.answered_at + TAKE_SPACING_SECONDS - asyncio.get_running_loop().time()
    if wait > 0:
        await asyncio.sleep(wait)


class BatchReceiveLayer(RedisChannelLayer):  # type: ignore[misc]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._takes: dict[str, _Takes] = {}

    async def receive_single(self, channel: str) -> Received:
        if not channel.endswith("!"):
            return await super().receive_single(channel)  # type: ignore[no-any-return]
        index = self.consistent_hash(channel)
        key = self.prefix + channel
        await self.receive_clean_locks.acquire(key)
        try:
            taken = await self._take(index, key)
            while not taken:
                _stop_if_cancelled_unawares()
                taken = await self._take(index, key)
        finally:
            self.receive_clean_locks.release(key)
        # No await from here to the return: the caller holds the receive lock, and the
        # batch reaches its sockets' buffers before any other receive looks at them.
        received = [self._unpack(channel, content) for content in taken]
        for target, message in received[:-1]:
            for name in [target] if isinstance(target, str) else target:
                self.receive_buffer[name].put_nowait(message)
        # The caller buffers the last one itself, after these: each socket's order holds.
        return received[-1]

    async def _take(self, index: int, key: str) -> list[bytes]:
        """The messages waiting on `key` (up to RECEIVE_BATCH + 1), oldest first, in one round
        trip: after a busy take, all of them moved to this take's in-flight copy; after a
        quiet one, a blocking pop of the first, up to `brpop_timeout`, and the ones waiting
        behind it moved to the copy. Empty when none came. The popped one is not in the copy:
        a take cancelled after Redis answered loses it, as channels-redis's own receive loses
        the message its blocking pop took (a socket closing as a notice comes on a quiet floor;
        the pages re-read on their next notice or reconnection)."""
        takes = self._takes.setdefault(key, _Takes())
        await _spaced(takes)
        if takes.busy:
            pipe = self._pipeline_after(index, key, takes)
            this = self._next_copy(key, takes)
            pipe.eval(TAKE_WAITING, 2, key, this, RECEIVE_BATCH, int(self.expiry))
            waiting = (await pipe.execute())[-1]
            self._read(takes, copied=bool(waiting))
            if waiting:
                return list(waiting[0::2])
            takes.busy = False
        pipe = self._pipeline_after(index, key, takes)
        pipe.bzpopmin(key, timeout=self.brpop_timeout)
        this = self._next_copy(key, takes)
        pipe.eval(TAKE_WAITING, 2, key, this, RECEIVE_BATCH, int(self.expiry))
        first, rest = (await pipe.execute())[-2:]
        copied = list(rest[0::2])
        self._read(takes, copied=bool(copied))
        takes.busy = bool(copied)
        popped = [] if first is None else [first[1]]
        return popped + copied

    def _pipeline_after(self, index: int, key: str, takes: _Takes) -> Any:
        """A pipeline that first settles the takes before this one: the delivered copy
        removed, the copies of takes cancelled on their way put back in front of the key."""
        pipe = self.connection(index).pipeline(transaction=False)
        if takes.delivered is not None:
            pipe.delete(self._in_flight(key, takes.delivered))
        for number in takes.unread:
            pipe.eval(PUT_BACK_IN_FLIGHT, 0, key, self._in_flight(key, number))
        return pipe

    def _next_copy(self, key: str, takes: _Takes) -> str:
        """The next take's copy, counted unread until its answer is read."""
        takes.number += 1
        takes.unread.append(takes.number)
        return self._in_flight(key, takes.number)

    @staticmethod
    def _read(takes: _Takes, *, copied: bool) -> None:
        """The last take's answer is read: the removal and the putting back are done, and
        what it copied is in its sockets' buffers before the next await (the caller's)."""
        takes.delivered = takes.number if copied else None
        takes.unread = []
        takes.answered_at = asyncio.get_running_loop().time()

    def _in_flight(self, key: str, number: int) -> str:
        return f"{self._backup_channel_name(key)}.{number}"

    def _unpack(self, channel: str, content: bytes) -> Received:
        message: dict[str, Any] = self.deserialize(content)
        target = message.pop("__asgi_channel__", channel)
        return target, message
