"""Compact change notices for live screens, published after commit (never on rollback).

With REDIS_URL they go to the Redis channel `casino:table:<id>`; on the embedded default
they go to in-process subscribers. Either way the same notice, reduced to "table N changed at
seq S", goes to the Channels groups of the table and of the floor, which the pages' websockets
listen to. Before it, the screens' drawers (registered when the apps load) may draw what the
change altered, in the writing process, and their messages go first (the floor's tiles).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from functools import cache
from typing import Any

import redis
from django.conf import settings

from tables.live.groups import FLOOR_GROUP, table_group
from tables.live.publisher import send_messages

logger = logging.getLogger(__name__)
Subscriber = Callable[[str, dict[str, Any]], None]
_local_subscribers: list[Subscriber] = []
# A drawer gets the table that changed and answers the (group, message) pairs to push.
Drawer = Callable[[int], list[tuple[str, dict[str, Any]]]]
_drawers: list[Drawer] = []


def channel_for(table_id: int) -> str:
    return f"casino:table:{table_id}"


@cache
def _redis_client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=2)


def subscribe_locally(subscriber: Subscriber) -> Callable[[], None]:
    _local_subscribers.append(subscriber)
    return lambda: _local_subscribers.remove(subscriber)


def draw_for_screens(drawer: Drawer) -> None:
    if drawer not in _drawers:
        _drawers.append(drawer)


def publish(table_id: int, notice: dict[str, Any]) -> None:
    """Called from `transaction.on_commit`: the facts are stored before anyone hears of them."""
    _publish_to_screens(table_id, notice)
    channel = channel_for(table_id)
    if settings.REDIS_URL:
        try:
            _redis_client(settings.REDIS_URL).publish(channel, json.dumps(notice))
        except redis.RedisError:
            # Live screens re-read the state on reconnect; a lost notice loses no fact.
            logger.warning("could not publish the change notice on %s", channel, exc_info=True)
        return
    for subscriber in list(_local_subscribers):
        subscriber(channel, notice)


def _publish_to_screens(table_id: int, notice: dict[str, Any]) -> None:
    # The notice is only the table and its seq: the page re-fetches what its viewer may see.
    message = {"type": "table.changed", "table": table_id, "seq": notice.get("seq")}
    messages: list[tuple[str, dict[str, Any]]] = []
    for drawer in _drawers:
        try:
            messages.extend(drawer(table_id))
        except Exception:  # a drawing that fails leaves the pages to fetch: never fail the write
            logger.warning("could not draw the screens of table %s", table_id, exc_info=True)
    messages += [(table_group(table_id), message), (FLOOR_GROUP, message)]
    try:
        send_messages(messages)
    except Exception:  # a push that fails must never fail the committed write
        logger.warning("could not push the change notice of table %s", table_id, exc_info=True)
