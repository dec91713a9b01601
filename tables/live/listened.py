"""Who is in the channel-layer groups a batch goes to, asked of Redis in one round trip per
Redis server, however many groups.

channels-redis spends two round trips on a group before it knows who is in it, and most
notices go to groups no page listens to (a table nobody watches, the floor between shifts).
The drain asks for all of a batch's groups at once; a page joining meanwhile re-reads the
table when its socket opens, as it does now.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable

from channels_redis.core import RedisChannelLayer


async def group_members(layer: RedisChannelLayer, groups: Iterable[str]) -> dict[str, list[str]]:
    """Each of `groups` with a member now, mapped to its member channels, after dropping the
    members past the group expiry (as `group_send` does, so a page whose socket died without
    leaving stops costing a delivery). Groups without a member are left out."""
    by_connection: dict[int, list[str]] = defaultdict(list)
    for group in set(groups):
        by_connection[layer.consistent_hash(group)].append(group)
    cutoff = int(time.time()) - layer.group_expiry
    members: dict[str, list[str]] = {}
    for index, shard in by_connection.items():
        pipe = layer.connection(index).pipeline(transaction=False)
        for group in shard:
            key = layer._group_key(group)
            pipe.zremrangebyscore(key, min=0, max=cutoff)
            pipe.zrange(key, 0, -1)
        answers = await pipe.execute()
        for group, channels in zip(shard, answers[1::2], strict=True):
            if channels:
                members[group] = [channel.decode("utf8") for channel in channels]
    return members
