"""The whole end-of-shift report set of the bench shift (every table's report, the floor
summary, the cashier's and the audit, forced as reprints) timed in wall clock and in CPU: this
process's and its PostgreSQL backend's, read from /proc (the database on the same machine).

On a shared machine the wall clock follows the other jobs; the CPU a run uses much less so,
which is what a side-by-side comparison of two trees needs. The tree is an argument, so the
same script measures an old checkout that predates it, each on its own database already
holding the shift that `bench/reports_floor_summary.py` wrote:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_old \\
        .venv/bin/python bench/report_set_cpu.py --tree /path/to/old/tree --repeats 2
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    tree = args.tree.resolve()
    os.chdir(tree)
    sys.path[:0] = [str(tree), str(tree / "bench")]
    from _django import setup  # the tree's own, so its settings and apps load

    setup(require_postgres=True)
    from django.db import connection

    from reports.services.storing import produce_report
    from reports.shifts import floor_clock
    from tables.models import Table

    key = floor_clock().shift_of(datetime(2026, 1, 15, 9, 0, tzinfo=UTC))
    tables = list(Table.objects.order_by("name"))
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]

    def report_set() -> None:
        ids = [produce_report("table_shift", key, table=t, reprint=True).pk for t in tables]
        produce_report("floor_summary", key, reprint=True, table_report_ids=ids)
        produce_report("cashier", key, reprint=True)
        produce_report("audit", key, reprint=True)

    report_set()  # warm: caches, prepared statements, imports
    for _ in range(args.repeats):
        load = os.getloadavg()[0]
        wall, process, server = time.perf_counter(), time.process_time(), _cpu_seconds(backend)
        report_set()
        wall = time.perf_counter() - wall
        process = time.process_time() - process
        server = _cpu_seconds(backend) - server
        print(
            f"{tree.name:<8} wall {wall:6.2f} s   cpu: process {process:5.2f} s + postgres "
            f"{server:5.2f} s = {process + server:5.2f} s   load average {load:.1f}",
            flush=True,
        )


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    main()
