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
`RECEIVE_BATCH`: the in-flight copy put back, and the waiting messages moved to a new copy by
a script; one removal of the copy follows. Only when none is waiting does a blocking pop
wait for the next one, and a cancelled receive that was not told so ends there (below).
Everything else is channels-redis's own: the receive lock among the process's sockets,
each socket's buffer, the in-flight copy that a cancelled receive leaves for the next one,
the serialization.
"""

from __future__ import annotations

import asyncio
from typing import Any

from channels_redis.core import RedisChannelLayer

# Messages taken off the process's key in one round trip, at most. A notice batch sends a
# process one message per socket it has in the groups (a tablet, the floor pages): a few
# batches' worth, and a socket's buffer holds `capacity` before it drops its oldest.
RECEIVE_BATCH = 200

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


class BatchReceiveLayer(RedisChannelLayer):  # type: ignore[misc]
    async def receive_single(self, channel: str) -> Received:
        if not channel.endswith("!"):
            return await super().receive_single(channel)  # type: ignore[no-any-return]
        index = self.consistent_hash(channel)
        key = self.prefix + channel
        await self.receive_clean_locks.acquire(key)
        try:
            taken, copied = await self._take(index, key)
            while not taken:
                _stop_if_cancelled_unawares()
                taken, copied = await self._take(index, key)
            if copied:
                self._forget_in_flight(index, key)  # releases the lock when done
            else:
                self.receive_clean_locks.release(key)
        except BaseException:
            self.receive_clean_locks.release(key)
            raise
        # No await from here to the return: the caller holds the receive lock, and the
        # batch reaches its sockets' buffers before any other receive looks at them.
        received = [self._unpack(channel, content) for content in taken]
        for target, message in received[:-1]:
            for name in [target] if isinstance(target, str) else target:
                self.receive_buffer[name].put_nowait(message)
        # The caller buffers the last one itself, after these: each socket's order holds.
        return received[-1]

    async def _take(self, index: int, key: str) -> tuple[list[bytes], bool]:
        """The messages waiting on `key` (up to RECEIVE_BATCH), oldest first, and whether the
        in-flight copy holds some of them. When some are waiting (the floor under load): one
        round trip, and all of them are in the copy. Else a blocking pop of the first, up to
        `brpop_timeout`, takes the ones that came with it in the same round trip; the popped
        one is not in the copy, as in channels-redis. Empty when none came."""
        in_flight = self._backup_channel_name(key)
        arguments = (2, key, in_flight, RECEIVE_BATCH, int(self.expiry))
        pipe = self.connection(index).pipeline(transaction=False)
        pipe.eval(PUT_BACK_IN_FLIGHT, 0, key, in_flight)
        pipe.eval(TAKE_WAITING, *arguments)
        _, waiting = await pipe.execute()
        if waiting:
            return list(waiting[0::2]), True
        pipe = self.connection(index).pipeline(transaction=False)
        pipe.bzpopmin(key, timeout=self.brpop_timeout)
        pipe.eval(TAKE_WAITING, *arguments)
        first, rest = await pipe.execute()
        copied = list(rest[0::2])
        popped = [] if first is None else [first[1]]
        return popped + copied, bool(copied)

    def _forget_in_flight(self, index: int, key: str) -> None:
        """Drop the batch's in-flight copy in a task of its own, as channels-redis does, so a
        receive cancelled now cannot leave it to be delivered twice; the next take of this
        key waits for it (the clean lock)."""
        in_flight = self._backup_channel_name(key)
        cleaner = asyncio.ensure_future(self.connection(index).delete(in_flight))
        self.receive_cleaners.append(cleaner)

        def done(task: Any) -> None:
            self.receive_cleaners.remove(task)
            self.receive_clean_locks.release(key)

        cleaner.add_done_callback(done)

    def _unpack(self, channel: str, content: bytes) -> Received:
        message: dict[str, Any] = self.deserialize(content)
        target = message.pop("__asgi_channel__", channel)
        return target, message
