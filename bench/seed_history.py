"""Seed tables with a long history for the load benchmarks: each table plays the engine's own
simulation through the services (every command by table_command, as a tablet's would) until
its log holds at least --events events. Then each table gets a dealer and, for Stud, seated
players, ready for bench/floor_load.py. Idempotent per name prefix: a seeded table is kept.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/h_snapshots_b \\
        .venv/bin/python bench/seed_history.py --tables 20 --events 10000 --prefix aged
"""

from __future__ import annotations

import argparse
import time

from _django import setup


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--prefix", default="aged")
    parser.add_argument("--first", type=int, default=0, help="number of the first table")
    args = parser.parse_args()
    setup(require_postgres=True)
    from bench_floor import ensure_floor
    from django.db import connection

    # Seeding only: each command still commits, but without waiting for the disk. A crash
    # would lose the last commits of a benchmark's scratch history, nothing else.
    with connection.cursor() as cursor:
        cursor.execute("SET synchronous_commit TO off")

    start = time.perf_counter()
    tables = ensure_floor(
        args.prefix, args.tables, history_events=args.events, first=args.first, log=print
    )
    print(f"{len(tables)} tables ready in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
