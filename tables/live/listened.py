"""Which channel-layer groups have a member, asked of Redis in one round trip per batch.

channels-redis spends two round trips on a group before it knows the group is empty, and
most notices go to groups no page listens to (a table nobody watches, the floor between
shifts). The drain asks for all of a batch's groups at once and sends only to those with a
member; a page joining meanwhile re-reads the table when its socket opens, as it does now.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from channels_redis.core import RedisChannelLayer


async def groups_with_members(layer: Any, groups: Iterable[str]) -> set[str]:
    """The `groups` with a member now (after dropping members past the group expiry, as
    `group_send` does). Every group counts as listened on a layer other than Redis's."""
    names = set(groups)
    if not isinstance(layer, RedisChannelLayer):
        return names
    by_connection: dict[int, list[str]] = defaultdict(list)
    for group in names:
        by_connection[layer.consistent_hash(group)].append(group)
    cutoff = int(time.time()) - layer.group_expiry
    found: set[str] = set()
    for index, shard in by_connection.items():
        pipe = layer.connection(index).pipeline(transaction=False)
        for group in shard:
            key = layer._group_key(group)
            pipe.zremrangebyscore(key, min=0, max=cutoff)
            pipe.zcard(key)
        answers = await pipe.execute()
        found.update(group for group, members in zip(shard, answers[1::2], strict=True) if members)
    return found
