"""A relayed notice reaches the page without channels' hop to a worker thread to close stale
database connections: the notice reads nothing but itself. Every other message still has it."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels import consumer as channels_consumer
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.db import connection

from casino.asgi import application
from tables.live import consumers
from tables.services import live
from tests.pages.supervision_floor import LiveFloor, heard_until_quiet, live_floor


@pytest.fixture
def floor(
    dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User, cashier_carmen: User
) -> LiveFloor:
    return live_floor(dealer_dora, pit_boss_paula, pit_boss_pedro, cashier_carmen)


@pytest.fixture
def closings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each time channels closed old connections before a handler, and for what message."""
    seen: list[str] = []
    closing = channels_consumer.aclose_old_connections
    dispatch = channels_consumer.AsyncConsumer.dispatch

    async def counted_dispatch(self: Any, message: dict[str, Any]) -> None:
        async def close_for_this_message() -> None:
            seen.append(message["type"])
            await closing()

        monkeypatch.setattr(channels_consumer, "aclose_old_connections", close_for_this_message)
        try:
            await dispatch(self, message)
        finally:
            monkeypatch.setattr(channels_consumer, "aclose_old_connections", closing)

    monkeypatch.setattr(channels_consumer.AsyncConsumer, "dispatch", counted_dispatch)
    return seen


# Transactional on PostgreSQL, as the floor's push tests: the consumers' own reads close a
# connection held in a test's atomic block there.
@pytest.mark.django_db(transaction=connection.vendor == "postgresql")
@pytest.mark.parametrize("path", ["/ws/floor/", "/ws/tables/{table}/"])
def test_a_relayed_notice_takes_no_hop_to_close_connections_and_arrives(
    floor: LiveFloor, closings: list[str], path: str
) -> None:
    async def scenario() -> list[dict[str, Any]]:
        socket = WebsocketCommunicator(
            application,
            path.format(table=floor.table.pk),
            headers=[(b"origin", b"http://127.0.0.1")],
        )
        socket.scope["user"] = floor.pit_boss
        connected, _code = await socket.connect()
        assert connected
        await heard_until_quiet(socket)  # the floor's own writes' notices, sent after commit
        await sync_to_async(live.publish)(floor.table.pk, {"seq": 1007})
        heard = await heard_until_quiet(socket)
        await socket.disconnect()
        return heard

    heard = async_to_sync(scenario)()
    assert heard == [{"type": "table.changed", "table": floor.table.pk, "seq": 1007}]
    # The connect still went through channels' own dispatch, its closing included.
    assert "websocket.connect" in closings
    assert "table.changed" not in closings


@pytest.mark.django_db(transaction=connection.vendor == "postgresql")
def test_a_floor_pages_frames_wait_a_moment_and_go_together_in_order(
    floor: LiveFloor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(consumers.FloorConsumer, "hold_seconds", 0.4)

    async def scenario() -> tuple[bool, list[dict[str, Any]], bool]:
        socket = WebsocketCommunicator(
            application, "/ws/floor/", headers=[(b"origin", b"http://127.0.0.1")]
        )
        socket.scope["user"] = floor.pit_boss
        connected, _code = await socket.connect()
        assert connected
        await heard_until_quiet(socket)  # the floor's own writes' notices, sent after commit
        # Five tables' changes (a table's older notice still waiting would be superseded).
        for table in range(9001, 9006):
            await sync_to_async(live.publish)(table, {"seq": 1})
        held = await socket.receive_nothing(timeout=0.2)
        heard = [await socket.receive_json_from(timeout=5) for _ in range(5)]
        # Held frames of a page that leaves are dropped with it, without an error.
        await sync_to_async(live.publish)(9006, {"seq": 1})
        await socket.disconnect()
        return held, heard, await socket.receive_nothing(timeout=0.6)

    held, heard, nothing_after = async_to_sync(scenario)()
    assert held
    assert [m["table"] for m in heard] == [9001, 9002, 9003, 9004, 9005]
    assert nothing_after
