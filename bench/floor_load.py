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
(/api/live, no I/O) driven flat out by as many clients, as the stack's own limit. It first
times the database's own commit on this host, which every write waits for, and a fixed piece
of the engine's work before and after the load (bench/host_probe.py): the host's own speed.

Websocket listeners (bench/bench_listeners.py, a process of their own) stand for open tablets,
one per table on its table's socket, and `--floor-pages` floor pages that hear every table,
each signed in at /login/ as its dealer. Each write's notice is timed from the moment the
dealer's client had the write's 201 (negative: the notice came first), and each write also to
the first notice of its seq or a later one (what the page re-reads shows it). `--floor-tiles
en` opens the floor pages as the floor page does, signed in as the pit boss, with the tile
drawn on each write pushed to them. The listener process's own CPU is given, to show it is
not what makes notices late. `--paces 1,1.5,2` runs one phase per pace on the same tables,
one after the other on the same server; the server's CPU is also given as a share of the
node's cores over the phase's wall time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time
import uuid
from collections import Counter
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
    parser.add_argument("--paces", help="comma-separated requests/s per table, one phase each")
    parser.add_argument("--floor-pages", type=int, default=4)
    parser.add_argument(
        "--client-processes", type=int, default=1, help="the dealers' clients split among them"
    )
    parser.add_argument("--no-listeners", action="store_true")
    parser.add_argument(
        "--floor-tiles", help="the floor pages' language: open as the floor page does (?tiles=)"
    )
    args = parser.parse_args()
    setup(require_postgres=True)
    from bench_floor import PASSWORD, ensure_floor
    from bench_http import Server, sign_in
    from host_probe import print_commit_latency, print_reference_work

    phases: list[tuple[str, Any]] = []
    if not args.skip_fresh:
        prefix = f"fresh-{uuid.uuid4().hex[:6]}"
        phases.append(("fresh", ensure_floor(prefix, args.tables, log=lambda _: None)))
    if args.aged_prefix:
        aged = ensure_floor(args.aged_prefix, args.tables, log=lambda _: None)
        prior = statistics.median(t.head_seq for t in aged)
        phases.append((f"aged (median {prior:.0f} prior events)", aged))
    paces = [float(p) for p in args.paces.split(",")] if args.paces else [args.pace]
    print(f"load average before: {load_average()}")
    print_commit_latency()
    print_reference_work("before")
    with Server(args.port, args.workers, PROJECT / "var" / "floor_load_server.log") as server:
        for name, tables in phases:
            tokens = signed_in(tables, lambda t: sign_in(args.port, t.dealer, PASSWORD))
            listeners = None if args.no_listeners else open_listeners(args, tables)
            try:
                crews = make_dealers(args, tables, tokens, paces[0])
                try:
                    for pace in paces:
                        args.pace = pace
                        result = run_phase(server, tables, crews, args, listeners)
                        report(f"{name}, {pace:g} requests/s per table", result)
                finally:
                    crews.close()
            finally:
                # A failed phase too: the script would otherwise wait at exit for the
                # listeners' process.
                if listeners is not None:
                    listeners.stop()
        report_live(server, args)
    print(f"load average after: {load_average()}")
    print_reference_work("after")


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def signed_in(tables: list[Any], sign: Any) -> dict[str, str]:
    """Each dealer signed in once (a few at a time: each sign-in hashes a password)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(4) as pool:
        return dict(zip([t.dealer for t in tables], pool.map(sign, tables), strict=True))


def open_listeners(args: Any, tables: list[Any]) -> Any:
    from bench_floor import PASSWORD
    from bench_listeners import Listeners, session_cookie

    cookies = signed_in(tables, lambda t: session_cookie(args.port, t.dealer, PASSWORD))
    tablets = [(t.table_id, cookies[t.dealer]) for t in tables]
    floors = [cookies[tables[n % len(tables)].dealer] for n in range(args.floor_pages)]
    if args.floor_tiles:  # the tiles are pushed only to those the floor page lets in
        floors = [session_cookie(args.port, pit_boss(), PASSWORD) for _ in floors]
    floor_path = f"/ws/floor/?tiles={args.floor_tiles}" if args.floor_tiles else "/ws/floor/"
    listeners = Listeners(args.port, tablets, floors, floor_path)
    opened = listeners.start()
    print(f"   {opened} websocket listeners ({len(tablets)} tablets, {len(floors)} floor pages)")
    return listeners


def pit_boss() -> str:
    """The floor's pit boss (bench/bench_floor.py), given the bench's password to sign in."""
    from bench_floor import PASSWORD
    from django.contrib.auth import get_user_model

    boss = get_user_model().objects.get(username="bench-boss")
    if not boss.check_password(PASSWORD):
        boss.set_password(PASSWORD)
        boss.save(update_fields=["password"])
    return str(boss.username)


def make_dealers(args: Any, tables: list[Any], tokens: dict[str, str], pace: float) -> Any:
    """One dealer per table, kept from phase to phase: a hand a phase left open is finished
    with its own deck in the next. They play in `--client-processes` processes."""
    from bench_dealers import Dealer, crews_of

    dealers = [Dealer(args.port, tokens[t.dealer], t, pace, seed=n) for n, t in enumerate(tables)]
    return crews_of(dealers, args.client_processes)


def run_phase(
    server: Any, tables: list[Any], crews: Any, args: Any, listeners: Any = None
) -> dict[str, Any]:
    """One phase at `args.pace`: `crews.play(seconds, budget, pace)` runs the dealers (in this
    process's threads or in their crews' processes) and leaves each one's samples on it."""
    from django.db import connection
    from node_cpu import node_cpu

    from tables.models import TableEvent

    dealers = crews.dealers
    budget = max(1, args.max_requests // len(dealers))
    ids = [t.table_id for t in tables]
    rows_before = TableEvent.objects.filter(table_id__in=ids).count()
    cpu_before = server.cpu_seconds()
    database = str(connection.settings_dict["NAME"])
    node_before = node_cpu(server.process.pid, database)
    listening_before = listeners.cpu_seconds() if listeners is not None else 0.0
    start = time.perf_counter()
    crews.play(args.seconds, budget, args.pace)
    elapsed = time.perf_counter() - start
    cpu = server.cpu_seconds() - cpu_before
    node_after = node_cpu(server.process.pid, database)
    listening = listeners.cpu_seconds() - listening_before if listeners is not None else 0.0
    rows_after = TableEvent.objects.filter(table_id__in=ids).count()
    writes = [s for d in dealers for s in d.samples.writes]
    reads = [s for d in dealers for s in d.samples.reads]
    return {
        "tables": len(tables), "elapsed": elapsed, "writes": writes, "reads": reads,
        "errors": [e for d in dealers for e in d.samples.errors],
        "rounds": sum(d.samples.rounds for d in dealers),
        "rows_before": rows_before, "rows_after": rows_after, "cpu": cpu,
        "acks": [a for d in dealers for a in d.samples.acks], "listeners": listeners,
        "load": load_average(), "node": (node_before, node_after),
        "listening_cpu": listening, "start": start,
        "timeline": [w for d in dealers for w in d.samples.timeline],
    }  # fmt: skip


def report(name: str, result: dict[str, Any]) -> None:
    from bench_http import percentile
    from node_cpu import line as node_line
    from node_cpu import spent

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
    report_tail(result["timeline"], result["start"])
    if every:
        per_request = result["cpu"] / len(every) * 1000
        share = result["cpu"] / elapsed / (os.cpu_count() or 1)
        cores = os.cpu_count()
        print(f"   server CPU {result['cpu']:.1f} s, {per_request:.1f} ms per request, "
              f"{share:.0%} of the node's {cores} cores; load {result['load']}")  # fmt: skip
        print(f"   {node_line(spent(*result['node']), elapsed, len(every))}")
    if result["listeners"] is not None:
        print(f"   websocket listeners' CPU {result['listening_cpu']:.1f} s, "
              f"{result['listening_cpu'] / elapsed:.0%} of one core")  # fmt: skip
        report_delivery(result["listeners"], result["acks"])
    distinct: dict[str, int] = {}
    for error in result["errors"]:
        distinct[error[:160]] = distinct.get(error[:160], 0) + 1
    for error, count in sorted(distinct.items(), key=lambda item: -item[1])[:5]:
        print(f"   error x{count}: {error}")


def report_tail(timeline: list[tuple[float, str, float]], start: float) -> None:
    """Where the writes past the phase's p99 come from: which commands, and which seconds of
    the phase (a stall of the whole server shows as a few seconds holding most of them)."""
    from bench_http import percentile

    if len(timeline) < 100:
        return
    p99 = percentile([elapsed for _, _, elapsed in timeline], 0.99)
    slow = [(sent, command) for sent, command, elapsed in timeline if elapsed > p99]
    if not slow:
        return
    sent_per_command = Counter(command for _, command, _ in timeline)
    commands = Counter(command for _, command in slow).most_common(4)
    seconds = Counter(int(sent - start) for sent, _ in slow).most_common(4)
    print("   past the p99: " + ", ".join(
        f"{command} {count} (of {sent_per_command[command]})" for command, count in commands
    ) + "; in seconds " + ", ".join(f"{second}: {count}" for second, count in seconds))  # fmt: skip


# Notices still on their way when a phase ends are waited for this long before counting.
SETTLE_SECONDS = 2.0


def report_delivery(listeners: Any, acks: list[tuple[int, int, float]]) -> None:
    """The notices heard so far, timed against the writes of this phase: a write's own seq
    (the first figures), and its seq or a later one of its table (the page re-reads the
    table as of the notice, so either shows the write: "heard")."""
    from bench_http import percentile
    from bench_listeners import covered_ms, delivery_ms

    time.sleep(SETTLE_SECONDS)
    heard = listeners.peek()
    for label, arrivals in [("tablets", heard.tablets), *(
        (f"floor page {n + 1}", floor) for n, floor in enumerate(heard.floors)
    )]:  # fmt: skip
        delays, missed = delivery_ms(acks, arrivals)
        covered, never = covered_ms(acks, arrivals)
        if not delays:
            print(f"   websocket {label}: nothing heard ({missed} writes unheard)")
            continue
        print(f"   websocket {label}: {len(delays)} notices, 201 -> notice "
              f"p50 {statistics.median(delays):.1f} ms, p95 {percentile(delays, 0.95):.1f} ms, "
              f"p99 {percentile(delays, 0.99):.1f} ms; {missed} writes unheard")  # fmt: skip
        print(f"      {len(acks)} writes heard at their seq or later: "
              f"p50 {statistics.median(covered):.1f} ms, p95 {percentile(covered, 0.95):.1f} ms, "
              f"p99 {percentile(covered, 0.99):.1f} ms; {never} never")  # fmt: skip
    if heard.refused:
        print(f"   websocket sockets closed: {len(heard.refused)}, first: {heard.refused[0]}")


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
