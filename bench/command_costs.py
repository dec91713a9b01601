"""What each dealer command costs, in process on PostgreSQL: whole Siete y Medio rounds and
Stud hands played through the API (token authentication, DRF, the service, the engine, the
log, the projections, the commit), timed per command name.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench REDIS_URL=redis://127.0.0.1:6379/14 \\
        .venv/bin/python bench/command_costs.py --tables 4 --rounds 12 [--tree ../before]

`bench/floor_load.py` says which commands hold a phase's slowest writes; this says what one
of each costs on an idle server, so a command that costs several plain ones stands out.
`--tree` measures another checkout's code (a worktree of an earlier commit) with this script,
on the same database; `--profile award-pots,rounds` prints where those commands' time goes.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import io
import os
import pstats
import random
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from dealer_play import TablePlay  # self-contained: no Django before setup


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=4, help="half Siete y Medio, half Stud")
    parser.add_argument("--rounds", type=int, default=12, help="rounds or hands per table")
    parser.add_argument("--tree", type=Path, help="the checkout whose code is measured")
    parser.add_argument("--profile", default="", help="comma-separated command names")
    args = parser.parse_args()
    import _django

    if args.tree is not None:
        # The other tree's code first; this script's own helpers are the same in both. Its
        # directory too: the Celery app puts the working directory first on the path.
        _django.PROJECT = args.tree.resolve()
        sys.path.insert(0, str(_django.PROJECT))
        os.chdir(_django.PROJECT)
    _django.setup(require_postgres=True)
    from bench_floor import ensure_floor

    profiled = set(filter(None, args.profile.split(",")))
    profiler = cProfile.Profile()
    costs: dict[str, list[float]] = {}
    tables = ensure_floor(f"costs-{uuid.uuid4().hex[:6]}", args.tables, log=lambda _: None)
    dealers = [
        InProcessDealer(table, n, costs, profiler, profiled) for n, table in enumerate(tables)
    ]
    for _ in range(args.rounds):
        for dealer in dealers:
            dealer.play_one()
    for name, seconds in sorted(costs.items(), key=lambda item: -statistics.median(item[1])):
        ms = [s * 1000 for s in seconds]
        print(f"{name:14s} {len(ms):5d} requests, median {statistics.median(ms):6.2f} ms, "
              f"max {max(ms):7.2f} ms")  # fmt: skip
    if profiled:
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(40)
        print(text.getvalue())


class InProcessDealer(TablePlay):
    """A table's dealer through Django's test client, with a real token; each command's time
    goes to `costs` under its name, and the `profiled` ones run under `profiler`."""

    def __init__(
        self,
        table: Any,
        seed: int,
        costs: dict[str, list[float]],
        profiler: Any,
        profiled: set[str],
    ) -> None:
        from django.contrib.auth.models import User
        from rest_framework.test import APIClient

        from tables.auth_tokens import token_issue

        super().__init__(table.game, random.Random(seed), max_boxes=6)
        self.table_url = f"/api/tables/{table.table_id}"
        self.costs, self.profiler, self.profiled = costs, profiler, profiled
        token, _ = token_issue(user=User.objects.get(username=table.dealer))
        self.client = APIClient()
        self.client.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    def post(self, path: str, **data: Any) -> dict[str, Any] | None:
        name = path.rsplit("/", 1)[-1]
        send = self.client.post
        if name in self.profiled:
            send = functools.partial(self.profiler.runcall, self.client.post)
        start = time.perf_counter()
        answer = send(f"{self.table_url}/{path}", data, format="json")
        self.costs.setdefault(name, []).append(time.perf_counter() - start)
        if answer.status_code >= 300:
            raise RuntimeError(f"{path} refused: {answer.status_code} {answer.content!r}")
        return dict(answer.json()["state"])

    def state(self) -> dict[str, Any]:
        return dict(self.client.get(self.table_url).json()["state"])


if __name__ == "__main__":
    main()
