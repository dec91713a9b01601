"""The retention experiment: the event log as one table, and as a copy partitioned by month of
`recorded_at` (PostgreSQL declarative partitioning), filled with the same synthetic rows.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/h_snapshots_b \\
        .venv/bin/python bench/log_partitions.py --rows 2000000 --months 12

It measures the insert rate of each (INSERT ... SELECT of `--rows` rows over `--tables`
tables, spread over `--months` months, in batches), the size of each, the time of the reads a
command and an audit make (a table's tail, one month's events of a table), and whether the
`(table, seq)` uniqueness still holds: a partitioned table's unique index must contain the
partition key, so the experiment tries a duplicate `(table, seq)` in another month against
(a) the partitions' own (table, seq, recorded_at) key and (b) a separate unpartitioned
`(table, seq)` index table written beside it.

The tables are scratch copies (`retention_*`) made and dropped by the script; the real log
is not touched.
"""

from __future__ import annotations

import argparse
import time
from datetime import UTC, datetime

from _django import setup

COLUMNS = (
    "table_id bigint NOT NULL, seq bigint NOT NULL, type varchar(64) NOT NULL, "
    "payload jsonb NOT NULL, recorded_at timestamptz NOT NULL, "
    "prev_hash varchar(64) NOT NULL, hash varchar(64) NOT NULL"
)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--months", type=int, default=12)
    parser.add_argument("--batch", type=int, default=250_000)
    args = parser.parse_args()
    setup(require_postgres=True)
    from django.db import connection

    with connection.cursor() as cursor:
        drop(cursor)
        create(cursor, args.months)
        for name in ("retention_plain", "retention_monthly"):
            elapsed = fill(cursor, name, args)
            cursor.execute(f"SELECT pg_total_relation_size('{name}')")
            size = cursor.fetchone()[0]
            if name == "retention_monthly":
                size = partitions_size(cursor)
            rate = args.rows / elapsed
            print(f"{name}: {args.rows} rows in {elapsed:.1f} s = {rate:,.0f} rows/s, "
                  f"{size / 2**20:.0f} MiB")  # fmt: skip
        start = time.perf_counter()
        cursor.execute("INSERT INTO retention_heads SELECT table_id, seq FROM retention_monthly")
        print(f"retention_heads (the global (table, seq) index beside it): filled in "
              f"{time.perf_counter() - start:.1f} s")  # fmt: skip
        reads(cursor, args)
        uniqueness(cursor)
        drop(cursor)


def drop(cursor: object) -> None:
    for name in ("retention_plain", "retention_monthly", "retention_heads"):
        cursor.execute(f"DROP TABLE IF EXISTS {name} CASCADE")  # type: ignore[attr-defined]


def month_start(index: int) -> datetime:
    return datetime(2026 + index // 12, 1 + index % 12, 1, tzinfo=UTC)


def create(cursor: object, months: int) -> None:
    run = cursor.execute  # type: ignore[attr-defined]
    run(f"CREATE TABLE retention_plain (id bigserial PRIMARY KEY, {COLUMNS}, "
        "UNIQUE (table_id, seq))")  # fmt: skip
    run(f"CREATE TABLE retention_monthly (id bigserial, {COLUMNS}, "
        "UNIQUE (table_id, seq, recorded_at), PRIMARY KEY (id, recorded_at)) "
        "PARTITION BY RANGE (recorded_at)")  # fmt: skip
    for index in range(months):
        run(f"CREATE TABLE retention_monthly_{index:02d} PARTITION OF retention_monthly "
            f"FOR VALUES FROM ('{month_start(index).isoformat()}') "
            f"TO ('{month_start(index + 1).isoformat()}')")  # fmt: skip
    run("CREATE TABLE retention_heads (table_id bigint, seq bigint, PRIMARY KEY (table_id, seq))")


def fill(cursor: object, name: str, args: argparse.Namespace) -> float:
    """Rows in log order: each table's seqs rise with time, spread evenly over the months."""
    seconds = (month_start(args.months) - month_start(0)).total_seconds()
    start = time.perf_counter()
    for first in range(0, args.rows, args.batch):
        last = min(args.rows, first + args.batch) - 1
        cursor.execute(  # type: ignore[attr-defined]
            f"INSERT INTO {name} (table_id, seq, type, payload, recorded_at, prev_hash, hash) "
            "SELECT n %% %s + 1, n / %s + 1, 'card.dealt', "
            "jsonb_build_object('card', '7O', 'box', n %% 6 + 1), "
            "%s::timestamptz + make_interval(secs => n * %s), "
            "md5(n::text) || md5((n + 1)::text), md5((n + 2)::text) || md5((n + 3)::text) "
            "FROM generate_series(%s, %s) AS n",
            [args.tables, args.tables, month_start(0), seconds / args.rows, first, last],
        )
    return time.perf_counter() - start


def partitions_size(cursor: object) -> int:
    cursor.execute(  # type: ignore[attr-defined]
        "SELECT sum(pg_total_relation_size(inhrelid)) FROM pg_inherits "
        "WHERE inhparent = 'retention_monthly'::regclass"
    )
    return int(cursor.fetchone()[0])  # type: ignore[attr-defined]


def reads(cursor: object, args: argparse.Namespace) -> None:
    head = args.rows // args.tables
    month = month_start(args.months // 2)
    queries = {
        "a command's tail (100 events of one table)": (
            "SELECT seq, type, payload FROM {t} WHERE table_id = 7 AND seq > %s ORDER BY seq",
            [head - 100],
        ),
        "one month of one table (an audit's walk)": (
            "SELECT seq, hash FROM {t} WHERE table_id = 7 AND recorded_at >= %s "
            "AND recorded_at < %s ORDER BY seq",
            [month, month_start(args.months // 2 + 1)],
        ),
    }
    for label, (sql, params) in queries.items():
        for name in ("retention_plain", "retention_monthly"):
            start = time.perf_counter()
            for _ in range(20):
                cursor.execute(sql.format(t=name), params)  # type: ignore[attr-defined]
                cursor.fetchall()  # type: ignore[attr-defined]
            print(f"{label}, {name}: {(time.perf_counter() - start) / 20 * 1000:.2f} ms")


def uniqueness(cursor: object) -> None:
    """A second row for (table 7, seq 1), a month later than the first."""
    from django.db import IntegrityError, transaction

    later = month_start(1)
    for target in ("retention_monthly", "retention_heads"):
        try:
            with transaction.atomic():
                if target == "retention_heads":
                    cursor.execute("INSERT INTO retention_heads VALUES (7, 1)")  # type: ignore[attr-defined]
                else:
                    cursor.execute(  # type: ignore[attr-defined]
                        "INSERT INTO retention_monthly (table_id, seq, type, payload, recorded_at, "
                        "prev_hash, hash) VALUES (7, 1, 'card.dealt', '{}', %s, '', '')",
                        [later],
                    )
            print(f"duplicate (table 7, seq 1) in another month: ACCEPTED by {target}")
        except IntegrityError:
            print(f"duplicate (table 7, seq 1) in another month: refused by {target}")


if __name__ == "__main__":
    main()
