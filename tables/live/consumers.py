"""Websocket consumers: they relay "table N changed at seq S", and to the floor its tiles.

A page that hears a notice re-reads its own fragment over HTTP, so what each viewer may see
is decided by the page's read, never by the push: no card travels in a notice. The one
drawing pushed is the floor's tile (`tables.pages.floor_drawing`), which holds no card, and only
to those the floor page itself lets in, in the language their page was drawn in.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import close_old_connections, connection

from tables import roles
from tables.live.groups import FLOOR_GROUP, floor_tiles_group, table_group
from tables.models import Table
from tables.pages import floor_drawing
from tables.policy import screens

logger = logging.getLogger(__name__)
STAFF_ROLES = screens.viewers("notices")
# How long a floor page's frame waits for the others to go with it in one write.
FLOOR_HOLD_SECONDS = 0.05
# Close codes in the 4000s are the application's own: the page shows why and stops retrying.
CLOSE_NOT_SIGNED_IN = 4401
CLOSE_NOT_FOUND = 4404


def _fresh_connection() -> None:
    """Drop a stale connection before a read, as Django does around each request. Never inside
    a transaction (a test's): that connection is the caller's."""
    if not connection.in_atomic_block:
        close_old_connections()


def _is_floor_staff_now(user: Any) -> bool:
    _fresh_connection()
    return bool(user and user.is_authenticated and roles.has_role(user, *STAFF_ROLES))


def _table_exists_now(table_id: int) -> bool:
    _fresh_connection()
    return Table.objects.filter(pk=table_id).exists()


def _may_see_the_floor_now(user: Any) -> bool:
    _fresh_connection()
    return floor_drawing.may_see_the_floor(user)


# Database reads from the event loop go to a worker thread (what channels' helper does).
_is_floor_staff = sync_to_async(_is_floor_staff_now)
_table_exists = sync_to_async(_table_exists_now)
_may_see_the_floor = sync_to_async(_may_see_the_floor_now)


def _tiles_language(scope: dict[str, Any]) -> str | None:
    """The language the floor page was drawn in (`?tiles=es`), if it is one of the floor's."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    language = (query.get("tiles") or [""])[0]
    return language if language in floor_drawing.floor_languages() else None


# The messages a relay only forwards, reading nothing but the message itself.
RELAYED_AS_THEY_ARE = frozenset({"table.changed", floor_drawing.TILE_DRAWN})


class NoticeRelay(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """Joins its groups and forwards their change notices to the browser.

    A page that hears many tables (the floor) gets its frames gathered: the first waits
    `hold_seconds` for the others that come meanwhile, and all go in one turn of the loop,
    which the server writes to the socket in one system call (casino/http_server.py). Each
    write is the kernel's whole loopback or network path, a large share of what relaying a
    notice cost, and a floor page hears every table's every change."""

    joined: tuple[str, ...] = ()
    hold_seconds = 0.0  # a frame goes at once
    _held_timer: asyncio.TimerHandle | None = None
    _sender: asyncio.Task[None] | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._held: list[dict[str, Any]] = []

    async def dispatch(self, message: dict[str, Any]) -> None:
        # channels closes stale database connections before every handler, in a worker
        # thread: for a relayed notice, which touches no database, that hop was most of its
        # cost (one per notice per open page). Every other message still goes through it.
        relay = None
        if message.get("type") in RELAYED_AS_THEY_ARE:
            relay = getattr(self, get_handler_name(message), None)
        if relay is None:
            await super().dispatch(message)
            return
        await relay(message)

    async def join(self, *groups: str) -> None:
        self.joined = groups
        assert self.channel_layer is not None
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self._held_timer is not None:
            self._held_timer.cancel()
        if self._sender is not None:
            self._sender.cancel()
        if self.channel_layer is not None:
            for group in self.joined:
                await self.channel_layer.group_discard(group, self.channel_name)

    async def table_changed(self, message: dict[str, Any]) -> None:
        await self.relay(
            {"type": "table.changed", "table": message["table"], "seq": message["seq"]}
        )

    async def relay(self, frame: dict[str, Any]) -> None:
        """Send `frame` to the browser, at once or with the frames of the next moment."""
        if not self.hold_seconds:
            await self.send_json(frame)
            return
        self._held.append(frame)
        if self._held_timer is None and self._sender is None:
            loop = asyncio.get_running_loop()
            self._held_timer = loop.call_later(self.hold_seconds, self._send_held)

    def _send_held(self) -> None:
        self._held_timer = None
        self._sender = asyncio.ensure_future(self._send_all_held())

    async def _send_all_held(self) -> None:
        # One task at a time sends, in the order the frames came; frames that come while it
        # sends go with it.
        try:
            while self._held:
                frames, self._held = self._held, []
                for frame in frames:
                    await self.send_json(frame)
        except Exception:  # the socket closed meanwhile: the page re-reads when it reconnects
            logger.debug("held notices not sent to %s", self.channel_name, exc_info=True)
        finally:
            self._sender = None

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        # The socket is one-way; the page writes over HTTP, where the policy and CSRF apply.
        return


class TableConsumer(NoticeRelay):
    async def connect(self) -> None:
        if not await _is_floor_staff(self.scope.get("user")):
            await self.close(code=CLOSE_NOT_SIGNED_IN)
            return
        table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        if not await _table_exists(table_id):
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.join(table_group(table_id))


class FloorConsumer(NoticeRelay):
    tiles_language: str | None = None
    # Every table's every change: gathered for a twentieth of a second, which a pit boss
    # does not notice. One write per notice cost four floor pages several hundred system
    # calls a second at the floor's busiest pace.
    hold_seconds = FLOOR_HOLD_SECONDS

    async def connect(self) -> None:
        user = self.scope.get("user")
        if not await _is_floor_staff(user):
            await self.close(code=CLOSE_NOT_SIGNED_IN)
            return
        language = _tiles_language(self.scope)
        if language is not None and await _may_see_the_floor(user):
            self.tiles_language = language
            await floor_drawing.floor_opened(language)
            await self.join(FLOOR_GROUP, floor_tiles_group(language))
        else:
            await self.join(FLOOR_GROUP)

    async def disconnect(self, code: int) -> None:
        if self.tiles_language is not None:
            await floor_drawing.floor_closed(self.tiles_language)
            self.tiles_language = None
        await super().disconnect(code)

    async def tile_drawn(self, message: dict[str, Any]) -> None:
        await self.relay(
            {
                "type": floor_drawing.TILE_DRAWN,
                "table": message["table"],
                "seq": message["seq"],
                "html": message["html"],
            }
        )
