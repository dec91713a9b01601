"""The floor under load over real HTTP: T tables, each a dealer client playing whole Siete y
Medio rounds and Stud hands at a set pace, against the production server (gunicorn with
uvicorn workers, PostgreSQL, Redis, token authentication), bounded in time and requests.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/h_snapshots_b \\
    REDIS_URL=redis://127.0.0.1:6379/14 \\
        .venv/bin/python bench/floor_load.py --tables 12 --pace 2 --seconds 60 \\
        --aged-prefix aged --port 9131

Each phase plays fresh tables (made for the run) and then, if `--aged-prefix` names tables
seeded by bench/seed_history.py (10,000 prior events each), those, on the same server. It
reports requests/s, events/s, median and p99 of writes and reads, errors, the event rows
before and after, the server's CPU per request, and then the server's cheapest endpoint
(/api/live, no I/O) driven flat out by as many clients, as the stack's own limit.

TODO (websocket listeners): open tablets and floor pages listening for the pushes, and the
delivery latency from a command's commit to each listener, once the live consumer (Django
Channels) is in casino.asgi. Until then no listener is opened and no delivery is measured.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from _django import setup

PROJECT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--pace", type=float, default=2.0, help="requests/s per table")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--max-requests", type=int, default=20_000, help="per phase")
    parser.add_argument("--aged-prefix", help="tables seeded by bench/seed_history.py")
    parser.add_argument("--skip-fresh", action="store_true")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--port", type=int, default=9131)
    parser.add_argument("--live-seconds", type=float, default=10.0)
    args = parser.parse_args()
    setup(require_postgres=True)
    from bench_floor import PASSWORD, ensure_floor
    from bench_http import Server, sign_in

    phases: list[tuple[str, Any]] = []
    if not args.skip_fresh:
        prefix = f"fresh-{uuid.uuid4().hex[:6]}"
        phases.append(("fresh", ensure_floor(prefix, args.tables, log=lambda _: None)))
    if args.aged_prefix:
        aged = ensure_floor(args.aged_prefix, args.tables, log=lambda _: None)
        prior = statistics.median(t.head_seq for t in aged)
        phases.append((f"aged (median {prior:.0f} prior events)", aged))
    with Server(args.port, args.workers, PROJECT / "var" / "floor_load_server.log") as server:
        for name, tables in phases:
            tokens = {t.dealer: sign_in(args.port, t.dealer, PASSWORD) for t in tables}
            report(name, run_phase(server, tables, tokens, args))
        report_live(server, args)


def run_phase(server: Any, tables: list[Any], tokens: dict[str, str], args: Any) -> dict[str, Any]:
    from bench_dealers import Dealer

    from tables.models import TableEvent

    dealers = [
        Dealer(args.port, tokens[t.dealer], t, args.pace, seed=n) for n, t in enumerate(tables)
    ]
    stop = threading.Event()
    budget = max(1, args.max_requests // len(dealers))
    ids = [t.table_id for t in tables]
    rows_before = TableEvent.objects.filter(table_id__in=ids).count()
    cpu_before = server.cpu_seconds()
    threads = [threading.Thread(target=d.run, args=(stop, budget)) for d in dealers]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    deadline = start + args.seconds
    while time.perf_counter() < deadline and any(t.is_alive() for t in threads):
        time.sleep(0.2)
    stop.set()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    cpu = server.cpu_seconds() - cpu_before
    rows_after = TableEvent.objects.filter(table_id__in=ids).count()
    writes = [s for d in dealers for s in d.samples.writes]
    reads = [s for d in dealers for s in d.samples.reads]
    return {
        "tables": len(tables), "elapsed": elapsed, "writes": writes, "reads": reads,
        "errors": [e for d in dealers for e in d.samples.errors],
        "rounds": sum(d.samples.rounds for d in dealers),
        "rows_before": rows_before, "rows_after": rows_after, "cpu": cpu,
    }  # fmt: skip


def report(name: str, result: dict[str, Any]) -> None:
    from bench_http import percentile

    every = result["writes"] + result["reads"]
    elapsed = result["elapsed"]
    events = result["rows_after"] - result["rows_before"]

    def line(label: str, samples: list[float]) -> str:
        ms = [s * 1000 for s in samples]
        if not ms:
            return f"{label}: none"
        return (
            f"{label}: {len(ms)}, median {statistics.median(ms):.1f} ms, "
            f"p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms"
        )

    print(f"== {name}: {result['tables']} tables, {elapsed:.1f} s, {result['rounds']} rounds/hands")
    rows = f"event rows {result['rows_before']} -> {result['rows_after']}"
    # A 4xx is the rules refusing the client (a hand it resumed was dealt from another deck).
    refused = sum(error[:1] == "4" for error in result["errors"])
    print(f"   {len(every) / elapsed:.1f} requests/s, {events / elapsed:.1f} events/s, "
          f"{len(result['errors']) - refused} errors, {refused} refusals; {rows}")  # fmt: skip
    print(f"   {line('all', every)}")
    print(f"   {line('writes', result['writes'])}")
    print(f"   {line('reads', result['reads'])}")
    if every:
        per_request = result["cpu"] / len(every) * 1000
        print(f"   server CPU {result['cpu']:.1f} s, {per_request:.1f} ms per request")
    distinct: dict[str, int] = {}
    for error in result["errors"]:
        distinct[error[:160]] = distinct.get(error[:160], 0) + 1
    for error, count in sorted(distinct.items(), key=lambda item: -item[1])[:5]:
        print(f"   error x{count}: {error}")


def report_live(server: Any, args: Any) -> None:
    """/api/live flat out from as many clients as there were tables: the stack's own limit."""
    from bench_http import Client, percentile

    samples: list[list[float]] = [[] for _ in range(args.tables)]
    stop = threading.Event()

    def hammer(into: list[float]) -> None:
        client = Client(args.port)
        while not stop.is_set():
            status, _, elapsed = client.get("/api/live")
            if status == 200:
                into.append(elapsed)

    threads = [threading.Thread(target=hammer, args=(s,)) for s in samples]
    cpu_before = server.cpu_seconds()
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    time.sleep(args.live_seconds)
    stop.set()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    cpu = server.cpu_seconds() - cpu_before
    ms = [s * 1000 for group in samples for s in group]
    print(f"== /api/live flat out, {args.tables} clients, {elapsed:.1f} s: "
          f"{len(ms) / elapsed:.0f} requests/s, median {statistics.median(ms):.1f} ms, "
          f"p99 {percentile(ms, 0.99):.1f} ms, "
          f"server CPU {cpu / len(ms) * 1000:.2f} ms per request")  # fmt: skip


if __name__ == "__main__":
    main()
