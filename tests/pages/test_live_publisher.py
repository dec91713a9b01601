"""The publisher's queue: every group hears each table's latest seq, in order, on any layer."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from tables.live import publisher
from tables.live.groups import table_group
from tables.live.publisher import latest_per_table, send_messages
from tests.live_listener import GroupListener


def notice(table: int, seq: int, kind: str = "table.changed") -> dict[str, Any]:
    return {"type": kind, "table": table, "seq": seq}


def test_a_superseded_message_is_dropped_and_the_rest_keep_their_order() -> None:
    queued = [
        ("floor.tiles.es", notice(1, 1, "tile.drawn")),
        ("floor", notice(1, 1)),
        ("floor", notice(2, 7)),
        ("floor.tiles.es", notice(1, 2, "tile.drawn")),
        ("floor", notice(1, 2)),
        ("table.1", notice(1, 2)),
        ("floor", {"type": "floor.refresh"}),
    ]
    assert latest_per_table(queued) == [
        ("floor", notice(2, 7)),
        ("floor.tiles.es", notice(1, 2, "tile.drawn")),
        ("floor", notice(1, 2)),
        ("table.1", notice(1, 2)),
        ("floor", {"type": "floor.refresh"}),
    ]


def test_a_burst_of_writes_ends_with_every_table_at_its_latest_seq() -> None:
    listeners = {table: GroupListener(table_group(table)) for table in (9001, 9002)}
    try:
        # 90 writes: fewer than a channel holds (100) on the in-memory layer, which drops the rest.
        for seq in range(1, 91):
            table = 9001 if seq % 3 else 9002
            send_messages([(table_group(table), notice(table, seq))])
        heard: dict[int, list[int]] = {table: [] for table in listeners}
        for table, listener in listeners.items():
            while (message := listener.next_message(timeout=1)) is not None:
                assert message["table"] == table
                heard[table].append(message["seq"])
    finally:
        for listener in listeners.values():
            listener.leave()
    assert (heard[9001][-1], heard[9002][-1]) == (89, 90)
    for seqs in heard.values():
        assert seqs == sorted(set(seqs)), "each table's notices arrive once each, in order"


def test_a_stopping_worker_waits_until_its_queued_notices_are_sent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The queue is drained on a daemon thread that dies with the process: a stopping worker
    (casino/gunicorn_conf.py) and a listener that must hear only later writes wait for it."""
    listener = GroupListener(table_group(9004))
    released = threading.Event()
    send = publisher._send_batch

    async def held_until_released(layer: Any, messages: publisher.Messages) -> None:
        while not released.is_set():
            await asyncio.sleep(0.01)
        await send(layer, messages)

    monkeypatch.setattr(publisher, "_send_batch", held_until_released)
    try:
        # Through the queue on any layer (the in-memory one sends at once, without it).
        publisher._courier.post(listener.layer, [(table_group(9004), notice(9004, 1))])
        assert not publisher.wait_until_sent(timeout=0.2), "a notice is still queued"
        released.set()
        assert publisher.wait_until_sent(timeout=5)
        assert listener.next_message(timeout=1) == notice(9004, 1)
    finally:
        released.set()
        listener.leave()
