"""The notice drain's cost per batch on the real Redis: a tree's `_send_batch` beside
channels-redis's own `group_send` loop (the peer: the drain's path before it batched).

    REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python bench/live_batch.py \\
        --tables 200 --floor-pages 4 --writes 20 --batches 60 [--tree ../before]

Each write's notices are what `tables.services.live.publish` sends: a drawn tile to the
floor-tiles group, "table N changed" to the table's group and to the floor's. Every table has
a tablet (a channel in its table's group) and `--floor-pages` pages listen to the floor and
its tiles; `--silent-tables` more tables have no listener, as a table nobody watches. Each
listener is a real channel name on its own key. A batch is `--writes` writes on distinct
tables; its send is timed (the thread's CPU and the wall clock), then, untimed, every
listener's key is checked to hold what it should and emptied, so no channel fills up.
The paths alternate batch by batch. Round trips are counted on one more batch per path, with
the Redis client's calls counted on their way (not during the timed batches).

`--tree` imports the drain from another checkout (a worktree of the old code), so both trees
are measured by the same script.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import statistics
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

Messages = list[tuple[str, dict[str, Any]]]
Send = Callable[[Any, Messages], Awaitable[None]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--silent-tables", type=int, default=0)
    parser.add_argument("--floor-pages", type=int, default=4)
    parser.add_argument("--writes", type=int, default=20, help="writes per batch")
    parser.add_argument("--batches", type=int, default=60, help="timed batches per path")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(args.tree).resolve()))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    # Imported first, so the packages come from the tree even if setup adds a path ahead.
    import django

    import tables  # noqa: F401

    django.setup()
    asyncio.run(run(args))


async def run(args: argparse.Namespace) -> None:
    from channels_redis.core import RedisChannelLayer

    from tables.live import publisher

    layer = RedisChannelLayer(hosts=[os.environ["REDIS_URL"]], prefix=f"bench:{uuid.uuid4().hex}")

    async def group_send_loop(layer: Any, messages: Messages) -> None:
        for group, message in messages:
            await layer.group_send(group, message)

    paths: dict[str, Send] = {"group_send loop": group_send_loop, "drain": publisher._send_batch}
    tablets = {table: f"tablet.{table}" for table in range(args.tables)}
    floors = [f"floor.page.{n}" for n in range(args.floor_pages)]
    for table, channel in tablets.items():
        await layer.group_add(f"table.{table}", channel)
    for channel in floors:
        await layer.group_add("floor", channel)
        await layer.group_add("floor.tiles.es", channel)
    everyone = list(tablets.values()) + floors
    tables = itertools.cycle(range(args.tables + args.silent_tables))
    seq = itertools.count(1)
    cpu: dict[str, list[float]] = {name: [] for name in paths}
    wall: dict[str, list[float]] = {name: [] for name in paths}
    pairs = 0
    try:
        for _ in range(args.batches):
            for name, send in paths.items():
                batch = notices([next(tables) for _ in range(args.writes)], seq)
                pairs = len(batch)
                started, started_cpu = time.perf_counter(), time.thread_time()
                await send(layer, batch)
                cpu[name].append(time.thread_time() - started_cpu)
                wall[name].append(time.perf_counter() - started)
                await check_and_empty(layer, batch, tablets, floors, everyone)
        trips = {}
        for name, send in paths.items():
            batch = notices([next(tables) for _ in range(args.writes)], seq)
            trips[name] = await round_trips(layer, send, batch)
            await check_and_empty(layer, batch, tablets, floors, everyone)
    finally:
        await layer.flush()
    print(
        f"drain of {Path(publisher.__file__).resolve().parents[2].name}: "
        f"{args.tables} tables with a tablet, "
        f"{args.silent_tables} silent, {args.floor_pages} floor pages; "
        f"{args.writes} writes ({pairs} group messages) a batch, {args.batches} batches a path"
    )
    print(f"load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    for name in paths:
        per_write = statistics.median(cpu[name]) / args.writes * 1e6
        rate = args.writes / statistics.median(wall[name])
        print(
            f"{name:16} CPU per write {per_write:7.1f} µs"
            f" (median batch {statistics.median(cpu[name]) * 1e3:6.2f} ms,"
            f" p90 {quantile(cpu[name], 0.9) * 1e3:6.2f} ms); {rate:8.0f} writes/s wall;"
            f" round trips per batch {trips[name]}"
        )


def notices(tables: list[int], seq: itertools.count[int]) -> Messages:
    """What publish sends for one write on each of `tables`."""
    batch: Messages = []
    for table in tables:
        notice = {"type": "table.changed", "table": table, "seq": next(seq)}
        tile = {"type": "tile.drawn", "table": table, "seq": notice["seq"], "html": "x" * 400}
        batch += [("floor.tiles.es", tile), (f"table.{table}", notice), ("floor", notice)]
    return batch


async def check_and_empty(
    layer: Any, batch: Messages, tablets: dict[int, str], floors: list[str], everyone: list[str]
) -> None:
    """Every listener's key holds one message per pair sent to its groups; then empty them."""
    wanted = dict.fromkeys(everyone, 0)
    for group, message in batch:
        if group.startswith("floor"):
            for channel in floors:
                wanted[channel] += 1
        elif message["table"] in tablets:
            wanted[tablets[message["table"]]] += 1
    pipe = layer.connection(0).pipeline(transaction=False)
    for channel in everyone:
        pipe.zcard(layer.prefix + channel)
    held = dict(zip(everyone, await pipe.execute(), strict=True))
    if held != wanted:
        wrong = {c: (held[c], wanted[c]) for c in everyone if held[c] != wanted[c]}
        raise SystemExit(f"delivery differs (held, wanted): {dict(list(wrong.items())[:5])}")
    await layer.connection(0).delete(*(layer.prefix + channel for channel in everyone))


async def round_trips(layer: Any, send: Send, batch: Messages) -> int:
    from redis.asyncio.client import Pipeline, Redis

    count = 0
    execute, command = Pipeline.execute, Redis.execute_command

    async def counting_execute(self: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal count
        count += 1
        return await execute(self, *args, **kwargs)

    async def counting_command(self: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal count
        count += 1
        return await command(self, *args, **kwargs)

    Pipeline.execute, Redis.execute_command = counting_execute, counting_command  # type: ignore[method-assign]
    try:
        await send(layer, batch)
    finally:
        Pipeline.execute, Redis.execute_command = execute, command  # type: ignore[method-assign]
    return count


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


if __name__ == "__main__":
    main()
