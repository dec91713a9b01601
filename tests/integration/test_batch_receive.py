"""A web process's sockets reading their notices in batches, on the real Redis.

Each test has a layer of its own (its own key prefix on REDIS_URL's database); the messages
are written by channels-redis's own `group_send` and `send`, as the floor's drain and pages
write them, and read with `layer.receive`, as a page's consumer reads them.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from typing import Any

import pytest
from channels.layers import get_channel_layer
from redis.asyncio.client import Pipeline

from tables.live import channel_layer
from tables.live.channel_layer import BatchReceiveLayer
from tests.integration.test_group_batch import counted, receive_all, run


def make_layer(**config: Any) -> BatchReceiveLayer:
    # The read timeout the settings give: longer than the blocking pop's 5 s.
    host = {"address": os.environ["REDIS_URL"], "socket_timeout": 30}
    return BatchReceiveLayer(hosts=[host], prefix=f"test:receive:{uuid.uuid4().hex}", **config)


async def receive_exactly(
    layer: BatchReceiveLayer, channel: str, count: int
) -> list[dict[str, Any]]:
    """The next `count` messages on `channel`: no receive is cancelled on the way (a busy
    machine's pause between two messages must not cut the list short)."""
    return [await asyncio.wait_for(layer.receive(channel), 10) for _ in range(count)]


def notices(count: int) -> list[dict[str, Any]]:
    return [{"type": "table.changed", "table": n % 7, "seq": n} for n in range(count)]


def test_the_configured_layer_is_this_one() -> None:
    assert isinstance(get_channel_layer(), BatchReceiveLayer)


def test_every_socket_hears_its_own_messages_once_each_in_order() -> None:
    layer = make_layer(capacity=1000)

    async def test() -> None:
        floor, tablet, other = [await layer.new_channel() for _ in range(3)]
        for channel in (floor, tablet):  # two members on one process key: one stored message
            await layer.group_add("table.1", channel)
        await layer.group_add("floor", floor)
        await layer.group_add("table.2", other)
        sent: dict[str, list[dict[str, Any]]] = {floor: [], tablet: [], other: []}
        for notice in notices(120):
            if notice["table"] == 1:
                await layer.group_send("table.1", notice)
                sent[floor].append(notice)
                sent[tablet].append(notice)
            await layer.group_send("floor", notice)
            sent[floor].append(notice)
            if notice["seq"] % 5 == 0:
                await layer.send(other, notice)  # one channel, not a group
                sent[other].append(notice)
        heard = await asyncio.gather(
            *(receive_exactly(layer, channel, len(sent[channel])) for channel in sent)
        )
        assert dict(zip(sent, heard, strict=True)) == sent
        left = await asyncio.gather(*(receive_all(layer, channel) for channel in sent))
        assert left == [[], [], []]  # and none twice

    run(layer, test)


def test_a_backlog_is_read_in_a_few_round_trips_not_four_per_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    layer = make_layer(capacity=1000)

    async def test() -> None:
        channel = await layer.new_channel()
        await layer.group_add("floor", channel)
        for notice in notices(150):
            await layer.group_send("floor", notice)
        with counted(monkeypatch) as trips:
            heard = [await layer.receive(channel) for _ in range(150)]
        assert heard == notices(150)
        # The whole batch in one (the first take also puts back a copy left before it).
        assert trips.total == 1, trips

    run(layer, test)


def test_a_quiet_floor_takes_each_notice_in_one_round_trip(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    layer = make_layer(capacity=1000)

    async def test() -> None:
        channel = await layer.new_channel()
        await layer.group_add("table.4", channel)
        for number, notice in enumerate(notices(6)):
            with counted(monkeypatch) as trips:
                waiting = asyncio.ensure_future(layer.receive(channel))
                await asyncio.sleep(0.3)  # in its blocking pop by now
            await layer.group_send("table.4", notice)
            assert await asyncio.wait_for(waiting, 5) == notice
            # The layer's first take looks for a backlog first, without waiting.
            assert trips.total == (2 if number == 0 else 1), trips

    run(layer, test)


def test_notices_coming_close_together_share_one_take(monkeypatch: pytest.MonkeyPatch) -> None:
    # Spacing long enough that both notices are sent before the next take starts, whatever
    # the machine's load.
    monkeypatch.setattr(channel_layer, "TAKE_SPACING_SECONDS", 0.5)
    layer = make_layer(capacity=1000)
    takes: list[int] = []
    take = layer._take

    async def counted_take(index: int, key: str) -> list[bytes]:
        taken = await take(index, key)
        takes.append(len(taken))
        return taken

    monkeypatch.setattr(layer, "_take", counted_take)

    async def test() -> None:
        channel = await layer.new_channel()
        await layer.group_add("table.4", channel)
        first, second, third = notices(3)
        await layer.group_send("table.4", first)
        assert await asyncio.wait_for(layer.receive(channel), 5) == first
        answered = asyncio.get_running_loop().time()
        waiting = asyncio.ensure_future(layer.receive(channel))
        await layer.group_send("table.4", second)
        await layer.group_send("table.4", third)
        assert await asyncio.wait_for(waiting, 5) == second
        assert await asyncio.wait_for(layer.receive(channel), 5) == third
        # The second take waited out the spacing (counted from the first take's answer, a
        # moment before its receive returned), then took both notices at once.
        assert asyncio.get_running_loop().time() - answered >= 0.4
        assert takes[-1] == 2, takes
        assert sum(1 for count in takes if count) == 2, takes

    run(layer, test)


async def in_flight(layer: BatchReceiveLayer) -> dict[bytes, int]:
    """Each in-flight copy on the layer's Redis keys and how many messages it holds."""
    connection = layer.connection(0)
    copies = [key async for key in connection.scan_iter(match=f"{layer.prefix}*$inflight*")]
    return {key: await connection.zcard(key) for key in copies}


def test_the_in_flight_copy_goes_with_the_next_take() -> None:
    layer = make_layer(capacity=1000)

    async def test() -> None:
        channel = await layer.new_channel()
        await layer.group_add("table.4", channel)
        sent = notices(5)
        for notice in sent[:3]:
            await layer.group_send("table.4", notice)
        assert await receive_exactly(layer, channel, 3) == sent[:3]
        # All three came through the copy, and are in the socket's buffer now.
        assert list((await in_flight(layer)).values()) == [3]
        waiting = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(0.3)  # the next take, in its blocking pop
        assert await in_flight(layer) == {}
        await layer.group_send("table.4", sent[3])
        assert await asyncio.wait_for(waiting, 5) == sent[3]

    run(layer, test)


@pytest.mark.parametrize("reached_redis", [True, False])
def test_a_take_cancelled_on_its_way_loses_nothing_and_repeats_nothing(
    monkeypatch: pytest.MonkeyPatch, reached_redis: bool
) -> None:
    layer = make_layer(capacity=1000)

    async def test() -> None:
        channel = await layer.new_channel()
        await layer.group_add("table.4", channel)
        sent = notices(9)
        for notice in sent[:3]:
            await layer.group_send("table.4", notice)
        # Delivered through the copy that the next take removes.
        assert await receive_exactly(layer, channel, 3) == sent[:3]
        for notice in sent[3:]:
            await layer.group_send("table.4", notice)
        execute = Pipeline.execute

        async def cancelled_on_its_way(self: Pipeline, *args: Any, **kwargs: Any) -> Any:
            if reached_redis:
                await execute(self, *args, **kwargs)  # Redis did it all; the answer is lost
            raise asyncio.CancelledError

        with monkeypatch.context() as patch:
            patch.setattr(Pipeline, "execute", cancelled_on_its_way)
            with pytest.raises(asyncio.CancelledError):
                await layer.receive(channel)
        # Messages were waiting at the last take: the cancelled one took them all to its copy.
        assert await receive_all(layer, channel) == sent[3:]
        assert await in_flight(layer) == {}

    run(layer, test)


def test_a_backlog_past_one_batch_takes_one_more_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(channel_layer, "RECEIVE_BATCH", 40)
    layer = make_layer(capacity=1000)

    async def test() -> None:
        channel = await layer.new_channel()
        await layer.group_add("floor", channel)
        for notice in notices(100):
            await layer.group_send("floor", notice)
        assert await receive_all(layer, channel) == notices(100)

    run(layer, test)


def test_a_socket_waiting_hears_the_next_message_when_it_comes() -> None:
    layer = make_layer()

    async def test() -> None:
        channel = await layer.new_channel()
        await layer.group_add("table.3", channel)
        waiting = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(0.3)  # the receive is in its blocking pop by now
        assert not waiting.done()
        await layer.group_send("table.3", {"type": "table.changed", "table": 3, "seq": 9})
        message = await asyncio.wait_for(waiting, 5)
        assert message == {"type": "table.changed", "table": 3, "seq": 9}

    run(layer, test)


def test_a_receive_cancelled_as_its_batch_arrives_leaves_the_rest_to_the_next(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    layer = make_layer()

    async def test() -> None:
        channel = await layer.new_channel()
        await layer.group_add("floor", channel)
        for notice in notices(10):
            await layer.group_send("floor", notice)
        execute = Pipeline.execute

        async def answered_then_cancelled(self: Pipeline, *args: Any, **kwargs: Any) -> Any:
            await execute(self, *args, **kwargs)  # Redis did it all; the answer is lost
            raise asyncio.CancelledError

        with monkeypatch.context() as patch:
            patch.setattr(Pipeline, "execute", answered_then_cancelled)
            with pytest.raises(asyncio.CancelledError):
                await layer.receive(channel)
        assert await receive_all(layer, channel) == notices(10)

    run(layer, test)


def test_a_plain_channel_is_read_as_channels_redis_reads_it() -> None:
    layer = make_layer()

    async def test() -> None:
        await layer.send("plain.reader", {"type": "table.changed", "table": 4, "seq": 1})
        assert await receive_all(layer, "plain.reader") == [
            {"type": "table.changed", "table": 4, "seq": 1}
        ]

    run(layer, test)


def test_a_receive_whose_cancellation_the_client_lost_still_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Python 3.11's wait_for, which the Redis client waits through, can drop a cancellation
    # that comes in the same turn as its result: here the client drops every one.
    layer = make_layer()
    layer.brpop_timeout = 1
    execute = Pipeline.execute

    async def losing_cancellations(self: Pipeline, *args: Any, **kwargs: Any) -> Any:
        try:
            return await execute(self, *args, **kwargs)
        except asyncio.CancelledError:
            return [None, []]  # as if the wait had ended with nothing, and no word of it

    async def test() -> None:
        channel = await layer.new_channel()
        await layer.group_add("table.5", channel)
        with monkeypatch.context() as patch:
            patch.setattr(Pipeline, "execute", losing_cancellations)
            receiving = asyncio.ensure_future(layer.receive(channel))
            await asyncio.sleep(0.3)  # in its blocking pop
            receiving.cancel()
            await asyncio.wait({receiving}, timeout=5)
        if not receiving.done():  # the failure: stop it for good before the layer's flush
            receiving.cancel()
            await asyncio.wait({receiving}, timeout=5)
        assert receiving.cancelled()

    run(layer, test)
