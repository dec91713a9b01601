"""Compact change notices for live screens, published after commit (never on rollback).

With REDIS_URL they go to the Redis channel `casino:table:<id>`; on the embedded default
they go to in-process subscribers.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from functools import cache
from typing import Any

import redis
from django.conf import settings

logger = logging.getLogger(__name__)
Subscriber = Callable[[str, dict[str, Any]], None]
_local_subscribers: list[Subscriber] = []


def channel_for(table_id: int) -> str:
    return f"casino:table:{table_id}"


@cache
def _redis_client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=2)


def subscribe_locally(subscriber: Subscriber) -> Callable[[], None]:
    _local_subscribers.append(subscriber)
    return lambda: _local_subscribers.remove(subscriber)


def publish(table_id: int, notice: dict[str, Any]) -> None:
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
