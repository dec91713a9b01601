"""The retention experiment: the event log as one table, and as a copy partitioned by month of
`recorded_at` (PostgreSQL declarative partitioning), filled with the same synthetic rows.

    psql -h 127.0.0.1 -U postgres -c "CREATE DATABASE h_measure_parts"
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/h_measure_parts \\
        .venv/bin/python bench/log_partitions.py --rows 10000000 --months 12
    psql -h 127.0.0.1 -U postgres -c "DROP DATABASE h_measure_parts"

Both copies are bulk-loaded the way a migration would fill them (INSERT ... SELECT from
generate_series, server-side, then the indexes built), `--rows` rows over `--tables` tables
spread over `--months` months, each table's seq rising with time. Then, on each copy:

- the sizes of the heap and of each index, and VACUUM (ANALYZE)'s time;
- the append rate at the head: single-row appends, each its own transaction (as a command
  commits), into the newest month; on the partitioned copy with the unpartitioned
  `(table, seq)` index table written by the same statement;
- `(table, seq)` point lookups; the tail a command reads after its snapshot, with and
  without the snapshot's `recorded_at` as a bound (partition pruning); one month of one table
  (an audit's walk);
- the chain across months: every row's `prev_hash` is its predecessor's `hash` (checked in
  seq order over a whole table, across every partition boundary);
- whether `(table, seq)` stays unique: a duplicate in another month against the partitions'
  own `(table, seq, recorded_at)` key and against the index table;
- the oldest month detached (`DETACH PARTITION ... CONCURRENTLY`) and archived (`COPY` to a
  file), against deleting the same rows from the plain table.

The tables are scratch copies (`retention_*`) made and dropped by the script; the real log
is not touched. The synthetic hash is md5-based, not the log's SHA-256: the experiment checks
the links, not the content hash.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from _django import PROJECT, setup

COLUMNS = (
    "table_id bigint NOT NULL, seq bigint NOT NULL, type varchar(64) NOT NULL, "
    "payload jsonb NOT NULL, recorded_at timestamptz NOT NULL, "
    "prev_hash varchar(64) NOT NULL, hash varchar(64) NOT NULL"
)
PLAIN, MONTHLY, HEADS = "retention_plain", "retention_monthly", "retention_heads"
# A link of the synthetic chain: a function of (table, seq), so a row's prev_hash is the
# hash of (table, seq - 1) and the links can be checked in SQL.
HASH_SQL = "md5({t}::text || ':' || {s}::text) || md5({s}::text || ':' || {t}::text)"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--months", type=int, default=12)
    parser.add_argument("--batch", type=int, default=1_000_000)
    parser.add_argument("--appends", type=int, default=2_000)
    # "off" takes the commit's WAL flush out of the appends' time (every append is its own
    # transaction, so with "on" they time the disk's fsync, which other work on a shared
    # machine makes noisy), leaving what the statement itself costs on each copy.
    parser.add_argument("--synchronous-commit", choices=("on", "off"), default="on")
    args = parser.parse_args()
    setup(require_postgres=True)
    from django.db import connection

    with connection.cursor() as cursor:
        run = cursor.execute
        run("SET maintenance_work_mem TO '256MB'")
        run(f"SET synchronous_commit TO {args.synchronous_commit}")
        drop(cursor)
        create(cursor, args.months)
        for name in (PLAIN, MONTHLY):
            elapsed = fill(cursor, name, args)
            say(f"{name}: bulk load of {args.rows:,} rows in {elapsed:.1f} s "
                f"= {args.rows / elapsed:,.0f} rows/s")  # fmt: skip
            say(f"{name}: indexes built in {build_indexes(cursor, name):.1f} s")
        start = time.perf_counter()
        run(f"INSERT INTO {HEADS} SELECT table_id, seq FROM {MONTHLY}")
        say(f"{HEADS} (the (table, seq) index table beside it): filled in "
            f"{time.perf_counter() - start:.1f} s")  # fmt: skip
        for name in (PLAIN, MONTHLY, HEADS):
            start = time.perf_counter()
            run(f"VACUUM (ANALYZE) {name}")
            say(f"{name}: VACUUM (ANALYZE) {time.perf_counter() - start:.1f} s")
        for name in (PLAIN, MONTHLY, HEADS):
            start = time.perf_counter()
            run(f"ANALYZE {name}")
            say(f"{name}: ANALYZE {time.perf_counter() - start:.1f} s")
        sizes(cursor)
        appends(cursor, args)
        reads(cursor, args)
        chain(cursor, args)
        uniqueness(cursor)
        archive(cursor, args)
        drop(cursor)


def say(line: str) -> None:
    print(f"{line}  [load {os.getloadavg()[0]:.1f}]", flush=True)


def drop(cursor: Any) -> None:
    for name in (PLAIN, MONTHLY, HEADS, f"{MONTHLY}_00"):
        cursor.execute(f"DROP TABLE IF EXISTS {name} CASCADE")


def month_start(index: int) -> datetime:
    return datetime(2026 + index // 12, 1 + index % 12, 1, tzinfo=UTC)


def create(cursor: Any, months: int) -> None:
    run = cursor.execute
    run(f"CREATE TABLE {PLAIN} (id bigint NOT NULL, {COLUMNS})")
    run(f"CREATE TABLE {MONTHLY} (id bigint NOT NULL, {COLUMNS}) PARTITION BY RANGE (recorded_at)")
    # The month after the last is the head's: it is empty, and the appends land in it.
    for index in range(months + 1):
        run(f"CREATE TABLE {MONTHLY}_{index:02d} PARTITION OF {MONTHLY} "
            f"FOR VALUES FROM ('{month_start(index).isoformat()}') "
            f"TO ('{month_start(index + 1).isoformat()}')")  # fmt: skip
    run(f"CREATE TABLE {HEADS} (table_id bigint, seq bigint, PRIMARY KEY (table_id, seq))")


def fill(cursor: Any, name: str, args: argparse.Namespace) -> float:
    """Rows in log order: each table's seqs rise with time, spread evenly over the months."""
    seconds = (month_start(args.months) - month_start(0)).total_seconds()
    table, seq = f"(n %% {args.tables} + 1)", f"(n / {args.tables} + 1)"
    start = time.perf_counter()
    for first in range(0, args.rows, args.batch):
        last = min(args.rows, first + args.batch) - 1
        cursor.execute(
            f"INSERT INTO {name} (id, table_id, seq, type, payload, recorded_at, prev_hash, hash) "
            f"SELECT n + 1, {table}, {seq}, 'card.dealt', "
            "jsonb_build_object('card', '7O', 'box', n %% 6 + 1), "
            "%s::timestamptz + make_interval(secs => n * %s), "
            f"{HASH_SQL.format(t=table, s=f'({seq} - 1)')}, {HASH_SQL.format(t=table, s=seq)} "
            "FROM generate_series(%s, %s) AS n",
            [month_start(0), seconds / args.rows, first, last],
        )
    return time.perf_counter() - start


def build_indexes(cursor: Any, name: str) -> float:
    """The log's own keys: the plain copy's as today; the partitioned copy's unique keys must
    hold the partition key, so `(table, seq)` is unique only together with `recorded_at`."""
    run = cursor.execute
    start = time.perf_counter()
    if name == PLAIN:
        run(f"ALTER TABLE {PLAIN} ADD PRIMARY KEY (id)")
        run(f"ALTER TABLE {PLAIN} ADD CONSTRAINT {PLAIN}_seq UNIQUE (table_id, seq)")
    else:
        run(f"ALTER TABLE {MONTHLY} ADD PRIMARY KEY (id, recorded_at)")
        run(f"ALTER TABLE {MONTHLY} ADD CONSTRAINT {MONTHLY}_seq "
            "UNIQUE (table_id, seq, recorded_at)")  # fmt: skip
    run(f"CREATE INDEX {name}_recorded ON {name} (recorded_at)")
    return time.perf_counter() - start


def sizes(cursor: Any) -> None:
    """Heap and each index, summed over the partitions for the partitioned copy."""
    cursor.execute(
        "SELECT coalesce(parent.relname, c.relname), c.relkind, sum(pg_relation_size(c.oid)) "
        "FROM pg_class c LEFT JOIN pg_inherits h ON h.inhrelid = c.oid "
        "LEFT JOIN pg_class parent ON parent.oid = h.inhparent "
        "WHERE c.relkind IN ('r', 'i') AND c.relname LIKE 'retention%' GROUP BY 1, 2 ORDER BY 2, 1"
    )
    for name, kind, size in cursor.fetchall():
        say(f"size of {'heap' if kind == 'r' else 'index'} {name}: {size / 2**20:,.0f} MiB")


def appends(cursor: Any, args: argparse.Namespace) -> None:
    """Single-row appends at each table's head, one transaction each (autocommit), the
    newest month; on the partitioned copy one statement writes the index table too."""
    cursor.execute(f"SELECT table_id, max(seq) FROM {PLAIN} GROUP BY table_id")
    heads = dict(cursor.fetchall())
    now = month_start(args.months) + timedelta(days=1)
    statements = {
        PLAIN: f"INSERT INTO {PLAIN} VALUES (%s, %s, %s, 'card.dealt', '{{}}', %s, '', '')",
        MONTHLY: f"WITH head AS (INSERT INTO {HEADS} VALUES (%s, %s)) "
        f"INSERT INTO {MONTHLY} VALUES (%s, %s, %s, 'card.dealt', '{{}}', %s, '', '')",
    }
    rates: dict[str, list[float]] = {PLAIN: [], MONTHLY: []}
    next_id = args.rows + 1
    # Alternate the two copies in rounds so the machine's drift falls on both alike.
    for _ in range(4):
        for name, sql in statements.items():
            count = args.appends // 4
            # Each copy gets the same (table, seq) values in a round.
            seqs = dict(heads)
            start = time.perf_counter()
            for index in range(count):
                table = index % args.tables + 1
                seqs[table] += 1
                params = [next_id, table, seqs[table], now]
                cursor.execute(sql, [table, seqs[table], *params] if name == MONTHLY else params)
                next_id += 1
            rates[name].append(count / (time.perf_counter() - start))
        heads = seqs
    for name, values in rates.items():
        rounds = ", ".join(f"{value:,.0f}" for value in values)
        say(f"append at the head, {name}: median {statistics.median(values):,.0f} rows/s "
            f"(4 rounds of {args.appends // 4}: {rounds}; synchronous_commit "
            f"{args.synchronous_commit})")  # fmt: skip


def timed(cursor: Any, sql: str, params: Callable[[], list[Any]], repeats: int) -> float:
    """Median milliseconds of `repeats` executions."""
    samples = []
    for _ in range(repeats):
        values = params()
        start = time.perf_counter()
        cursor.execute(sql, values)
        cursor.fetchall()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


def reads(cursor: Any, args: argparse.Namespace) -> None:
    rng = random.Random(7)
    per_table = args.rows // args.tables
    seconds_per_row = (month_start(args.months) - month_start(0)).total_seconds() / args.rows
    # A snapshot 100 events before a table's last bulk-loaded event: its recorded_at bounds
    # the tail's partitions.
    snapshot_seq = per_table - 100
    snapshot_at = month_start(0) + timedelta(
        seconds=((snapshot_seq - 1) * args.tables + 6) * seconds_per_row
    )
    month = month_start(args.months // 2)

    def point() -> list[Any]:
        return [rng.randint(1, args.tables), rng.randint(1, per_table)]

    queries: list[tuple[str, str, Callable[[], list[Any]]]] = [
        ("(table, seq) point lookup", "SELECT hash FROM {t} WHERE table_id = %s AND seq = %s",
         point),
        ("(table, seq) lookup through the index table's recorded_at",
         "SELECT hash FROM {t} WHERE table_id = %s AND seq = %s AND recorded_at = %s",
         lambda: (lambda t, s: [t, s, month_start(0) + timedelta(
             seconds=((s - 1) * args.tables + t - 1) * seconds_per_row)])(*point())),
        ("a command's tail after its snapshot (100 events)",
         "SELECT seq, type, payload FROM {t} WHERE table_id = 7 AND seq > %s ORDER BY seq",
         lambda: [snapshot_seq]),
        ("the same tail bounded by the snapshot's recorded_at",
         "SELECT seq, type, payload FROM {t} WHERE table_id = 7 AND seq > %s "
         "AND recorded_at >= %s ORDER BY seq", lambda: [snapshot_seq, snapshot_at]),
        ("one month of one table (an audit's walk)",
         "SELECT seq, hash FROM {t} WHERE table_id = 7 AND recorded_at >= %s "
         "AND recorded_at < %s ORDER BY seq", lambda: [month, month_start(args.months // 2 + 1)]),
    ]  # fmt: skip
    for label, sql, params in queries:
        figures = []
        for name in (PLAIN, MONTHLY):
            if "index table" in label and name == PLAIN:
                continue
            repeats = 200 if "lookup" in label else 20
            figures.append(f"{name} {timed(cursor, sql.format(t=name), params, repeats):.3f} ms")
        say(f"{label}: median {'; '.join(figures)}")


def chain(cursor: Any, args: argparse.Namespace) -> None:
    """Every link of one table's chain in seq order, across all the months it spans."""
    for name in (PLAIN, MONTHLY):
        start = time.perf_counter()
        cursor.execute(
            "SELECT count(*), count(*) FILTER (WHERE prev_hash <> coalesce(before, prev_hash)), "
            "count(DISTINCT date_trunc('month', recorded_at)) FROM (SELECT prev_hash, "
            f"recorded_at, lag(hash) OVER (ORDER BY seq) AS before FROM {name} "
            "WHERE table_id = 7 AND seq <= %s) AS links",
            [args.rows // args.tables],
        )
        rows, broken, months = cursor.fetchone()
        say(f"chain of table 7, {name}: {rows:,} links over {months} months, {broken} broken, "
            f"{(time.perf_counter() - start) * 1000:.0f} ms")  # fmt: skip


def uniqueness(cursor: Any) -> None:
    """A second row for (table 7, seq 1), a month later than the first."""
    from django.db import IntegrityError, transaction

    later = month_start(1)
    for target in (MONTHLY, HEADS):
        try:
            with transaction.atomic():
                if target == HEADS:
                    cursor.execute(f"INSERT INTO {HEADS} VALUES (7, 1)")
                else:
                    cursor.execute(
                        f"INSERT INTO {MONTHLY} VALUES (0, 7, 1, 'card.dealt', '{{}}', %s, '', '')",
                        [later],
                    )
            say(f"duplicate (table 7, seq 1) in another month: ACCEPTED by {target}")
        except IntegrityError:
            say(f"duplicate (table 7, seq 1) in another month: refused by {target}")
    # The accepted duplicate must not stay for the archive step below (the scratch copies
    # carry no append-only trigger).
    cursor.execute(f"DELETE FROM {MONTHLY} WHERE id = 0")


def archive(cursor: Any, args: argparse.Namespace) -> None:
    """The oldest month out: detached and copied to a file, against a DELETE of the same rows
    from the plain table (what retention would cost without partitions)."""
    cursor.execute(f"SELECT count(*) FROM {MONTHLY}_00")
    rows = cursor.fetchone()[0]
    start = time.perf_counter()
    cursor.execute(f"ALTER TABLE {MONTHLY} DETACH PARTITION {MONTHLY}_00 CONCURRENTLY")
    detached = time.perf_counter() - start
    path = Path(PROJECT) / "var" / "retention_month_00.copy"
    path.parent.mkdir(exist_ok=True)
    raw = cursor.connection  # the driver's connection: COPY streams through it
    start = time.perf_counter()
    with (
        raw.cursor() as copier,
        path.open("wb") as out,
        copier.copy(f"COPY {MONTHLY}_00 TO STDOUT") as copy,
    ):
        for block in copy:
            out.write(block)
    copied = time.perf_counter() - start
    size = path.stat().st_size
    path.unlink()
    start = time.perf_counter()
    cursor.execute(f"DROP TABLE {MONTHLY}_00")
    dropped = time.perf_counter() - start
    say(f"month 00 ({rows:,} rows): DETACH CONCURRENTLY {detached * 1000:.0f} ms, COPY to a "
        f"file {copied:.1f} s ({size / 2**20:,.0f} MiB), DROP {dropped * 1000:.0f} ms")  # fmt: skip
    start = time.perf_counter()
    cursor.execute(f"DELETE FROM {PLAIN} WHERE recorded_at < %s", [month_start(1)])
    say(f"the same month deleted from {PLAIN}: {cursor.rowcount:,} rows in "
        f"{time.perf_counter() - start:.1f} s (and its dead rows left for VACUUM)")  # fmt: skip


if __name__ == "__main__":
    main()
