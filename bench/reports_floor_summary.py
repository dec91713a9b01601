"""The floor summary of a 100-table, 1,000,000-event shift on PostgreSQL, beside a
hand-written SQL aggregate over the same rows (the limit), and the whole report set.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_reports \\
        .venv/bin/python bench/reports_floor_summary.py [--tables 100] [--events 1000000]

The shift is written once (bench/reports_shift_data.py) and reused by later runs. Timed:
- ``sql_aggregate``: one SQL statement summing, per table, the rounds' handle, house net and
  rake from the projected audit views, and the custody facts (buy-ins, fills, counted drop);
- ``floor_documents``: the table shift documents and the floor summary, built (no rendering);
- ``floor_summary``: the same as the report job runs it: 100 table reports and the summary,
  each built, rendered to JSON, CSV and PDF and stored (forced as reprints, so nothing is reused);
- ``cashier`` and ``audit`` (the audit verifies every chain and replays every round);
- ``report_set``: floor summary + cashier + audit, what the beat starts at the shift end.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from _django import setup

AGGREGATE_SQL = """
WITH custody AS (
    SELECT table_id, type, seq, payload FROM tables_tableevent
    WHERE type LIKE 'custody.%%' AND payload->>'gaming_day' = %s AND payload->>'shift' = %s
), windows AS (
    SELECT table_id,
           MIN(seq) FILTER (WHERE type = 'custody.opener') AS first_seq,
           MAX(seq) FILTER (WHERE type = 'custody.closer') AS last_seq,
           COALESCE(SUM((payload->>'amount')::bigint) FILTER (WHERE type = 'custody.buy_in'), 0)
               AS buy_ins,
           SUM((payload->>'amount')::bigint) FILTER (WHERE type = 'custody.drop_counted') AS dropped
    FROM custody GROUP BY table_id
), fills AS (
    SELECT c.table_id, SUM(chip.key::bigint * chip.value::bigint) AS amount
    FROM custody c, jsonb_each_text(c.payload->'chips') AS chip
    WHERE c.type = 'custody.fill' GROUP BY c.table_id
), per_round AS (
    SELECT r.table_id,
        COALESCE((SELECT SUM((x->>'stake')::bigint) FROM jsonb_array_elements(
            CASE WHEN jsonb_typeof(r.state->'results') = 'array' THEN r.state->'results'
            ELSE '[]'::jsonb END) x
            WHERE x->>'outcome' IN ('player_bust','bank_bust_win','win','push','loss')), 0)
        + COALESCE((SELECT SUM((p->>'amount')::bigint) FROM jsonb_array_elements(
            CASE WHEN jsonb_typeof(r.state->'result'->'pots') = 'array'
            THEN r.state->'result'->'pots' ELSE '[]'::jsonb END) p), 0) AS handle,
        COALESCE((SELECT -SUM((x->>'net')::bigint) FROM jsonb_array_elements(
            CASE WHEN jsonb_typeof(r.state->'results') = 'array' THEN r.state->'results'
            ELSE '[]'::jsonb END) x
            WHERE x->>'outcome' IN ('player_bust','bank_bust_win','win','push','loss')), 0)
        + COALESCE((r.state->'result'->>'rake_total')::bigint, 0) AS house_net,
        COALESCE((r.state->'result'->>'rake_total')::bigint, 0) AS rake
    FROM tables_round r
    JOIN windows w ON w.table_id = r.table_id AND r.last_seq BETWEEN w.first_seq AND w.last_seq
    WHERE r.status <> 'open'
)
SELECT w.table_id, w.buy_ins, w.dropped, COALESCE(f.amount, 0),
       COUNT(p.table_id), COALESCE(SUM(p.handle), 0), COALESCE(SUM(p.house_net), 0),
       COALESCE(SUM(p.rake), 0)
FROM windows w
LEFT JOIN fills f ON f.table_id = w.table_id
LEFT JOIN per_round p ON p.table_id = w.table_id
GROUP BY w.table_id, w.buy_ins, w.dropped, f.amount
"""


def timed(label: str, work: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    seconds, result = [], None
    for _ in range(repeats):
        began = time.perf_counter()
        result = work()
        seconds.append(time.perf_counter() - began)
    median = statistics.median(seconds)
    print(f"{label:<18} median {median:8.2f} s   runs: {', '.join(f'{s:.2f}' for s in seconds)}")
    return median, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--set-repeats", type=int, default=1)
    parser.add_argument(
        "--with-worker",
        action="store_true",
        help="also run the report set as the beat does, on a 2-process Celery worker (REDIS_URL)",
    )
    parser.add_argument("--skip-in-process", action="store_true")
    parser.add_argument("--skip-audit", action="store_true", help="in process: no audit")
    args = parser.parse_args()
    setup(require_postgres=True)

    from django.db import connection
    from django.utils import timezone
    from reports_shift_data import PREFIX, build_floor

    from reports.models import Report
    from reports.services import documents
    from reports.services.storing import produce_report
    from reports.shifts import floor_clock
    from tables.models import Table, TableEvent

    clock = floor_clock()
    key = clock.shift_of(datetime(2026, 1, 15, 9, 0, tzinfo=UTC))
    start = clock.bounds(key)[0]
    if not Table.objects.filter(name__startswith=PREFIX).exists():
        print(f"Writing {args.tables} tables, about {args.events:,} events ...", flush=True)
        seconds = build_floor(key, tables=args.tables, events=args.events, start=start)
        print(f"  written in {seconds:.0f} s")
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    tables = list(Table.objects.order_by("name"))
    print(
        f"Shift {key.gaming_day} {key.shift}: {len(tables)} tables, "
        f"{TableEvent.objects.count():,} events, PostgreSQL {connection.pg_version}"
    )

    def aggregate() -> list[tuple[Any, ...]]:
        with connection.cursor() as cursor:
            cursor.execute(AGGREGATE_SQL, [key.gaming_day.isoformat(), key.shift])
            return cursor.fetchall()

    def floor_documents() -> dict[str, Any]:
        context = documents.context_for(key, version=1, now=timezone.now())
        tables_docs = [documents.table_shift_document(t, key, context) for t in tables]
        return documents.floor_summary_document(tables_docs, context)

    def floor_summary() -> Report:
        ids = [produce_report("table_shift", key, table=t, reprint=True).pk for t in tables]
        return produce_report("floor_summary", key, reprint=True, table_report_ids=ids)

    sql_seconds, rows = timed("sql_aggregate", aggregate, args.repeats)
    if args.with_worker:
        print(f"{'set_on_worker':<18} {_set_on_worker(key):8.2f} s (queued at once, 2 processes)")
    if args.skip_in_process:
        return
    docs_seconds, summary = timed("floor_documents", floor_documents, args.repeats)
    _check_agreement(rows, summary["floor"])
    floor_seconds, _ = timed("floor_summary", floor_summary, args.set_repeats)
    print(f"floor documents / SQL aggregate: {docs_seconds / sql_seconds:.1f}x")
    print(f"floor summary job / SQL aggregate: {floor_seconds / sql_seconds:.1f}x")
    cashier_seconds, _ = timed(
        "cashier", lambda: produce_report("cashier", key, reprint=True), args.set_repeats
    )
    if args.skip_audit:
        return
    audit_seconds, audit = timed(
        "audit", lambda: produce_report("audit", key, reprint=True), args.set_repeats
    )
    total = floor_seconds + cashier_seconds + audit_seconds
    print(f"{'report_set':<18} {total:8.2f} s (floor summary + cashier + audit)")
    print(f"audit clean: {audit.document['clean']}, rounds replayed "
          f"{audit.document['replay']['rounds_replayed']:,}")  # fmt: skip


def _set_on_worker(key: Any) -> float:
    """The beat's set (floor chord, cashier, audit chord) queued at once to a real worker with
    two processes, timed until every run has finished. Also printed: the CPU the worker's
    processes used in that time, and how busy the whole machine was (other jobs included)."""
    import subprocess
    import sys

    from django.db import connection

    from reports.models import JobRun
    from reports.tasks import start_run

    params = connection.settings_dict
    database_url = f"postgres://{params['USER']}@{params['HOST']}:{params['PORT']}/{params['NAME']}"
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "casino", "worker", "-Q", "reports",
         "--pool", "prefork", "--concurrency", "2", "-l", "warning",
         "--without-heartbeat", "--without-mingle", "--without-gossip"],
        cwd=str(Path(__file__).resolve().parent.parent),
        env=dict(os.environ, DATABASE_URL=database_url),
    )  # fmt: skip
    try:
        time.sleep(5)  # let the worker connect before the clock starts
        load_before, machine_before = os.getloadavg()[0], _machine_jiffies()
        worker_before = _process_tree_seconds(worker.pid)
        began = time.perf_counter()
        runs = [
            start_run(kind, key, reprint=True) for kind in ("floor_summary", "cashier", "audit")
        ]
        pending = {run.pk for run in runs}
        while pending:
            time.sleep(0.5)
            done = JobRun.objects.filter(
                pk__in=pending, status__in=(JobRun.Status.SUCCEEDED, JobRun.Status.FAILED)
            )
            for run in done:
                print(f"  {run.kind:<14} {run.status} after {time.perf_counter() - began:.1f} s")
                pending.discard(run.pk)
        wall = time.perf_counter() - began
        worker_cpu = _process_tree_seconds(worker.pid) - worker_before
        busy, total = (after - before for after, before in zip(
            _machine_jiffies(), machine_before, strict=True
        ))  # fmt: skip
        print(
            f"  worker processes used {worker_cpu:.1f} s of CPU; the machine's 2 cores were "
            f"{100 * busy / max(total, 1):.0f} % busy; load average {load_before:.1f} before, "
            f"{os.getloadavg()[0]:.1f} after"
        )
        return wall
    finally:
        worker.terminate()
        worker.wait(timeout=60)


def _process_tree_seconds(root: int) -> float:
    """User + system CPU seconds of a process and its living descendants (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    seconds: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the process ended meanwhile
        parents[int(entry.name)] = int(fields[1])
        seconds[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    tree, grew = {root}, True
    while grew:
        children = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= children
        grew = bool(children)
    return sum(seconds.get(pid, 0.0) for pid in tree)


def _machine_jiffies() -> tuple[int, int]:
    """(busy, total) CPU jiffies of the whole machine since boot (Linux /proc/stat)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle and iowait
    return sum(values) - idle, sum(values)


def _check_agreement(rows: list[tuple[Any, ...]], floor: dict[str, Any]) -> None:
    """The report's floor totals equal the raw aggregate's, to the unit."""
    by_sql = {
        "drop": sum(row[2] for row in rows),
        "fills": sum(row[3] for row in rows),
        "hands_played": sum(row[4] for row in rows),
        "handle": sum(row[5] for row in rows),
        "actual_win": sum(row[6] for row in rows),
        "rake": sum(row[7] for row in rows),
    }
    by_report = {name: floor[name] for name in by_sql}
    status = "agree" if by_sql == by_report else "DISAGREE"
    print(f"floor totals {status}: report {by_report} / SQL {by_sql}")


if __name__ == "__main__":
    main()
