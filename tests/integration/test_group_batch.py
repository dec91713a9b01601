"""A batch of notices on the real Redis: what channels-redis's consumers read, and its cost.

Each test has a layer of its own (its own key prefix on REDIS_URL's database) and reads with
`layer.receive` on real channel names, as a page's consumer does. The first test is the
contract with channels-redis: if the helper the batch borrows or the stored message changes
with a new release, it fails here rather than on the floor.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from channels_redis.core import RedisChannelLayer
from redis.asyncio.client import Pipeline, Redis

from tables.live import group_batch
from tables.live.group_batch import send_batch

Messages = list[tuple[str, dict[str, Any]]]


def make_layer(hosts: int = 1, **config: Any) -> RedisChannelLayer:
    url = os.environ["REDIS_URL"]
    # Two "servers" on one database still take the code's per-server paths: the layer
    # hashes groups and channels over its hosts whatever they point at.
    return RedisChannelLayer(hosts=[url] * hosts, prefix=f"test:batch:{uuid.uuid4().hex}", **config)


def run(layer: RedisChannelLayer, test: Callable[[], Awaitable[None]]) -> None:
    async def body() -> None:
        try:
            await test()
        finally:
            await layer.flush()

    asyncio.run(body())


async def receive_all(layer: RedisChannelLayer, channel: str) -> list[dict[str, Any]]:
    """Every message waiting on `channel`, oldest first (0.2 s of silence ends it)."""
    heard = []
    while True:
        try:
            heard.append(await asyncio.wait_for(layer.receive(channel), 0.2))
        except TimeoutError:
            return heard


async def stored(layer: RedisChannelLayer, channel: str) -> list[dict[str, Any]]:
    """The messages waiting on `channel` as channels-redis stored them (before any receive)."""
    key = layer.prefix + (layer.non_local_name(channel) if "!" in channel else channel)
    raw = await layer.connection(layer.consistent_hash(key[len(layer.prefix) :])).zrange(key, 0, -1)
    return [layer.deserialize(entry) for entry in raw]


@dataclass
class RoundTrips:
    pipelines: list[int] = field(default_factory=list)  # commands in each pipeline sent
    commands: int = 0  # commands sent on their own

    @property
    def total(self) -> int:
        return len(self.pipelines) + self.commands


@contextmanager
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[RoundTrips]:
    """Every round trip to Redis while inside: the real client's calls, counted on the way."""
    trips = RoundTrips()
    execute, command = Pipeline.execute, Redis.execute_command

    async def counting_execute(self: Pipeline, *args: Any, **kwargs: Any) -> Any:
        trips.pipelines.append(len(self.command_stack))
        return await execute(self, *args, **kwargs)

    async def counting_command(self: Redis, *args: Any, **kwargs: Any) -> Any:
        trips.commands += 1
        return await command(self, *args, **kwargs)  # type: ignore[no-untyped-call]

    with monkeypatch.context() as patch:
        patch.setattr(Pipeline, "execute", counting_execute)
        patch.setattr(Redis, "execute_command", counting_command)
        yield trips


def test_the_batch_stores_what_group_send_stores() -> None:
    layer = make_layer()

    async def test() -> None:
        local = await layer.new_channel()  # a consumer's process-local channel ("…!…")
        plain = "plain.reader"
        for channel in (local, plain):
            await layer.group_add("g", channel)
        message = {"type": "table.changed", "table": 7, "seq": 3}
        await layer.group_send("g", message)
        by_library = {channel: await stored(layer, channel) for channel in (local, plain)}
        assert all(by_library.values()), "group_send stored nothing: the reading is off"
        for channel in (local, plain):
            await layer.connection(0).delete(layer.prefix + layer.non_local_name(channel))
        await send_batch(layer, [("g", message)])
        assert {channel: await stored(layer, channel) for channel in (local, plain)} == by_library
        assert await receive_all(layer, local) == [message]
        assert await receive_all(layer, plain) == [message]

    run(layer, test)


def test_each_member_hears_its_groups_once_each_in_order() -> None:
    layer = make_layer(hosts=2)

    async def test() -> None:
        floor, tablets = await layer.new_channel(), [await layer.new_channel() for _ in range(3)]
        for number, tablet in enumerate(tablets):
            await layer.group_add(f"table.{number}", tablet)
        await layer.group_add("floor", floor)
        await layer.group_add("floor.tiles.es", floor)
        batch: Messages = []
        for seq in range(1, 13):
            table = seq % 3
            notice = {"type": "table.changed", "table": table, "seq": seq}
            batch += [("floor.tiles.es", {"type": "tile.drawn", "table": table, "seq": seq})]
            batch += [(f"table.{table}", notice), ("floor", notice), ("table.99", notice)]
        await send_batch(layer, batch)
        wanted = [message for group, message in batch if group.startswith("floor")]
        assert await receive_all(layer, floor) == wanted
        for number, tablet in enumerate(tablets):
            heard = await receive_all(layer, tablet)
            assert heard == [message for group, message in batch if group == f"table.{number}"]

    run(layer, test)


def test_a_full_channel_is_skipped_and_logged_and_the_others_still_hear(
    caplog: pytest.LogCaptureFixture,
) -> None:
    layer = make_layer(capacity=2)

    async def test() -> None:
        stalled, reading = "stalled.page", "reading.page"
        for channel in (stalled, reading):
            await layer.group_add("floor", channel)
        for seq in (1, 2):
            await layer.send(stalled, {"type": "old", "seq": seq})
        with caplog.at_level(logging.INFO, logger=group_batch.__name__):
            await send_batch(layer, [("floor", {"type": "table.changed", "seq": 3})])
        assert [m["seq"] for m in await receive_all(layer, stalled)] == [1, 2]
        assert [m["seq"] for m in await receive_all(layer, reading)] == [3]
        assert "1 of 2 channels over capacity in group floor" in caplog.text

    run(layer, test)


def test_a_member_past_the_group_expiry_is_dropped_and_hears_nothing() -> None:
    layer = make_layer(group_expiry=60)

    async def test() -> None:
        await layer.group_add("floor", "live.page")
        # What group_add wrote for a page that left two minutes ago without saying so.
        key = layer._group_key("floor")
        await layer.connection(0).zadd(key, {"gone.page": time.time() - 120})
        await send_batch(layer, [("floor", {"type": "table.changed", "seq": 1})])
        assert await layer.connection(0).zrange(key, 0, -1) == [b"live.page"]
        assert await receive_all(layer, "gone.page") == []
        assert [m["seq"] for m in await receive_all(layer, "live.page")] == [1]

    run(layer, test)


def test_groups_without_members_cost_one_round_trip(monkeypatch: pytest.MonkeyPatch) -> None:
    layer = make_layer()

    async def test() -> None:
        batch: Messages = [(f"table.{n}", {"type": "table.changed", "seq": n}) for n in range(40)]
        with counted(monkeypatch) as trips:
            await send_batch(layer, batch)
        assert (trips.pipelines, trips.commands) == ([80], 0)  # drop + read, per group

    run(layer, test)


def test_a_batch_costs_two_round_trips_per_server_whatever_its_groups(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    layer = make_layer()

    async def test() -> None:
        floor = await layer.new_channel()
        await layer.group_add("floor", floor)
        tablets = [await layer.new_channel() for _ in range(30)]
        for number, tablet in enumerate(tablets):
            await layer.group_add(f"table.{number}", tablet)
        batch: Messages = []
        for number in range(30):
            notice = {"type": "table.changed", "table": number, "seq": 1}
            batch += [(f"table.{number}", notice), ("floor", notice)]
        # The first batch on a new connection also loads the script, in the same pipeline.
        # All of one layer's channels share one Redis key (a consumer process's), which holds
        # `capacity` messages: each batch is read before the next.
        for _ in range(2):
            with counted(monkeypatch) as trips:
                await send_batch(layer, batch)
            assert trips.total == 2, trips
            assert len(await receive_all(layer, floor)) == 30
            assert [len(await receive_all(layer, tablet)) for tablet in tablets] == [1] * 30

    run(layer, test)


def test_a_server_that_lost_the_script_gets_it_again(monkeypatch: pytest.MonkeyPatch) -> None:
    layer = make_layer()
    # A script text the server has never seen, on a connection marked as having loaded it:
    # what a client meets after Redis restarted (SCRIPT FLUSH would hit every user of it).
    script = f"{group_batch.DELIVER_TO_MEMBERS}-- {uuid.uuid4().hex}\n"
    monkeypatch.setattr(group_batch, "DELIVER_TO_MEMBERS", script)
    monkeypatch.setattr(group_batch, "DELIVER_SHA", hashlib.sha1(script.encode()).hexdigest())

    async def test() -> None:
        page = await layer.new_channel()
        await layer.group_add("floor", page)
        group_batch._script_loaded.add(layer.connection(0))
        batch: Messages = [("floor", {"type": "table.changed", "seq": n}) for n in (1, 2, 3)]
        await send_batch(layer, batch)
        assert [m["seq"] for m in await receive_all(layer, page)] == [1, 2, 3]

    run(layer, test)


def test_a_notice_to_a_table_and_the_floor_is_one_entry_per_web_process() -> None:
    layer = make_layer()

    async def test() -> None:
        # One web process's sockets: a tablet, a floor page, and a page in both groups.
        tablet, floor, both = [await layer.new_channel() for _ in range(3)]
        await layer.group_add("table.7", tablet)
        await layer.group_add("floor", floor)
        for group in ("table.7", "floor"):
            await layer.group_add(group, both)
        notice = {"type": "table.changed", "table": 7, "seq": 3}
        tile = {"type": "tile.drawn", "table": 7, "seq": 3, "html": "<article/>"}
        await send_batch(layer, [("floor", tile), ("table.7", notice), ("floor", notice)])
        # The process key holds the tile and one entry for the notice, naming all three.
        entries = await stored(layer, tablet)
        assert [entry["type"] for entry in entries] == ["tile.drawn", "table.changed"]
        assert sorted(entries[1]["__asgi_channel__"]) == sorted([tablet, floor, both])
        assert await receive_all(layer, tablet) == [notice]
        assert await receive_all(layer, floor) == [tile, notice]
        assert await receive_all(layer, both) == [tile, notice]

    run(layer, test)
