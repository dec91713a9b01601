"""Latency of the dealer's API over real HTTP, one request at a time: whole six-box Siete y
Medio rounds and Seven-Card Stud hands against the production server (gunicorn with uvicorn
workers, PostgreSQL, Redis, a dealer signed in through /api/auth/token), on fresh tables and,
with --aged-prefix, on tables seeded with a long history by bench/seed_history.py.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/h_snapshots_b \\
    REDIS_URL=redis://127.0.0.1:6379/14 \\
        .venv/bin/python bench/api_latency.py --requests 400 --aged-prefix aged --port 9132

With several workers, consecutive requests land on different processes, so most reads of a
table's state miss the process's cache and come from the stored snapshot and its tail.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import uuid
from pathlib import Path

from _django import setup

PROJECT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=400, help="per table")
    parser.add_argument("--aged-prefix", help="tables seeded by bench/seed_history.py")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--port", type=int, default=9132)
    args = parser.parse_args()
    setup(require_postgres=True)
    from bench_dealers import Dealer
    from bench_floor import PASSWORD, ensure_floor
    from bench_http import Server, percentile, sign_in

    groups = [("fresh", ensure_floor(f"latency-{uuid.uuid4().hex[:6]}", 2, log=lambda _: None))]
    if args.aged_prefix:
        groups.append(("aged", ensure_floor(args.aged_prefix, 2, log=lambda _: None)))
    with Server(args.port, args.workers, PROJECT / "var" / "api_latency_server.log"):
        for label, tables in groups:
            for table in tables:
                token = sign_in(args.port, table.dealer, PASSWORD)
                dealer = Dealer(args.port, token, table, pace=10_000.0, seed=1)
                dealer.run(threading.Event(), args.requests)
                ms = [s * 1000 for s in dealer.samples.writes + dealer.samples.reads]
                print(
                    f"{label} {table.game} ({table.head_seq} prior events): {len(ms)} requests, "
                    f"{dealer.samples.rounds} rounds, median {statistics.median(ms):.1f} ms, "
                    f"p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms, "
                    f"{len(dealer.samples.errors)} errors"
                )
                for error in sorted(set(dealer.samples.errors))[:3]:
                    print(f"    error: {error[:150]}")


if __name__ == "__main__":
    main()
