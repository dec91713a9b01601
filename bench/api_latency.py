"""Latency of the dealer's API over real HTTP, one request at a time: whole six-box Siete y
Medio rounds and Seven-Card Stud hands against the production server (gunicorn with uvicorn
workers, PostgreSQL, Redis, a dealer signed in through /api/auth/token), on fresh tables and,
with --aged-prefix, on tables seeded with a long history by bench/seed_history.py.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/h_snapshots_b \\
    REDIS_URL=redis://127.0.0.1:6379/14 \\
        .venv/bin/python bench/api_latency.py --requests 400 --aged-prefix aged --port 9132

With several workers, consecutive requests land on different processes, so most reads of a
table's state miss the process's cache and come from the stored snapshot and its tail.

With --runs N the fresh and the aged tables take turns N times on the same server (new fresh
tables each run, the order swapped every other run), and the samples of all runs are pooled
per game: one run's p99 of 200 requests is its second-largest sample, so it is one request
that waited for a core on a loaded machine; pooled, the p99 rests on N times as many.
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import uuid
from pathlib import Path
from typing import Any

from _django import setup

PROJECT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=400, help="per table")
    parser.add_argument("--aged-prefix", help="tables seeded by bench/seed_history.py")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--port", type=int, default=9132)
    parser.add_argument("--runs", type=int, default=1, help="fresh / aged turns, pooled")
    args = parser.parse_args()
    setup(require_postgres=True)
    from bench_floor import ensure_floor
    from bench_http import Server
    from host_probe import print_commit_latency, print_reference_work

    print_commit_latency()
    print_reference_work("before")
    pooled: dict[tuple[str, str], list[float]] = {}
    with Server(args.port, args.workers, PROJECT / "var" / "api_latency_server.log"):
        for run in range(args.runs):
            fresh = ensure_floor(f"latency-{uuid.uuid4().hex[:6]}", 2, log=lambda _: None)
            groups = [("fresh", fresh)]
            if args.aged_prefix:
                groups.append(("aged", ensure_floor(args.aged_prefix, 2, log=lambda _: None)))
            if run % 2 == 1:
                groups.reverse()
            print(f"run {run + 1} [load {os.getloadavg()[0]:.1f}]", flush=True)
            for label, tables in groups:
                for table in tables:
                    ms = _play(args.port, table, args.requests, label)
                    pooled.setdefault((label, table.game), []).extend(ms)
    if args.runs > 1:
        _print_pooled(pooled, args.runs)
    print_reference_work("after")


def _play(port: int, table: Any, requests: int, label: str) -> list[float]:
    from bench_dealers import Dealer
    from bench_floor import PASSWORD
    from bench_http import percentile, sign_in

    token = sign_in(port, table.dealer, PASSWORD)
    dealer = Dealer(port, token, table, pace=10_000.0, seed=1)
    dealer.run(threading.Event(), requests)
    ms = [s * 1000 for s in dealer.samples.writes + dealer.samples.reads]
    print(
        f"{label} {table.game} ({table.head_seq} prior events): {len(ms)} requests, "
        f"{dealer.samples.rounds} rounds, median {statistics.median(ms):.1f} ms, "
        f"p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms, "
        f"{len(dealer.samples.errors)} errors",
        flush=True,
    )
    for error in sorted(set(dealer.samples.errors))[:3]:
        print(f"    error: {error[:150]}")
    return ms


def _print_pooled(pooled: dict[tuple[str, str], list[float]], runs: int) -> None:
    from bench_http import percentile

    print(f"pooled over {runs} runs [load {os.getloadavg()[0]:.1f}]:")
    for game in sorted({game for _, game in pooled}):
        figures = {}
        for label in ("fresh", "aged"):
            ms = pooled.get((label, game))
            if ms:
                figures[label] = (statistics.median(ms), percentile(ms, 0.99), len(ms))
                median, p99, count = figures[label]
                print(
                    f"  {label} {game}: {count} requests, median {median:.1f} ms, p99 {p99:.1f} ms"
                )
        if len(figures) == 2:
            (fm, fp, _), (am, ap, _) = figures["fresh"], figures["aged"]
            print(f"  aged / fresh {game}: median {am / fm:.2f}, p99 {ap / fp:.2f}")


if __name__ == "__main__":
    main()
