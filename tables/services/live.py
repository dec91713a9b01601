"""Compact change notices for live screens, published after commit (never on rollback).

The notice, reduced to "table N changed at seq S", goes to the Channels groups of the table
and of the floor, which the pages' websockets listen to. Before it, the screens' drawers
(registered when the apps load) may draw what the change altered, in the writing process, and
their messages go first (the floor's tiles). The channel layer is the one way out: a Redis
channel `casino:table:<id>` that earlier screens listened to had no listener left and cost
every write a Redis round trip.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from tables.live.groups import FLOOR_GROUP, table_group
from tables.live.publisher import send_messages

logger = logging.getLogger(__name__)
# A drawer gets the table that changed and answers the (group, message) pairs to push.
Drawer = Callable[[int], list[tuple[str, dict[str, Any]]]]
_drawers: list[Drawer] = []


def draw_for_screens(drawer: Drawer) -> None:
    if drawer not in _drawers:
        _drawers.append(drawer)


def publish(table_id: int, notice: dict[str, Any]) -> None:
    """Called from `transaction.on_commit`: the facts are stored before anyone hears of them.
    The notice is only the table and its seq: the page re-fetches what its viewer may see."""
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
