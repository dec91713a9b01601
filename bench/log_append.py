"""Appends per second through the event-log service, beside a bare ORM INSERT of the same row.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench .venv/bin/python bench/log_append.py

The service path locks the table row, loads the (cached) engine state, lets the engine
decide, chains the hash, inserts, updates the projections and the head, and commits. The
bare path inserts one TableEvent row of the same size through the ORM and commits: the
stack's own limit for one durable row per request.
"""

from __future__ import annotations

import argparse
import statistics
import time
import uuid

from _django import setup


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--appends", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    setup(require_postgres=True)

    from django.db import connection, transaction
    from django.utils import timezone

    from tables import games
    from tables.models import Table, TableEvent
    from tables.services.commands import table_command
    from tables.services.floor import round_open, table_create, table_set_status
    from tests.tables.tally_game import BINDING, Add

    games.register(BINDING)
    table = table_create(name=f"bench-{uuid.uuid4().hex[:8]}", game="tally", seat_count=1)
    table_set_status(table_id=table.pk, status=Table.Status.OPEN, actor=None)
    round_open(table_id=table.pk, actor=None)
    sample = TableEvent.objects.filter(table=table).order_by("-seq").first()
    assert sample is not None

    def service() -> None:
        table_command(table_id=table.pk, command=Add(1), actor=None, source="tablet")

    bare_table = table_create(name=f"bare-{uuid.uuid4().hex[:8]}", game="tally", seat_count=1)
    counter = iter(range(10_000, 10_000_000))

    def bare_insert() -> None:
        seq = next(counter)
        now = timezone.now()
        TableEvent.objects.create(
            table=bare_table, round=None, seq=seq, type="tally.added", payload={"amount": 1},
            source="tablet", occurred_at=now, recorded_at=now, prev_hash=sample.hash,
            hash=uuid.uuid4().hex + uuid.uuid4().hex,
        )  # fmt: skip

    def bare_insert_in_transaction() -> None:
        with transaction.atomic():
            bare_insert()

    rates: dict[str, list[float]] = {"service": [], "bare_insert": [], "bare_atomic": []}
    actions = (
        ("bare_insert", bare_insert),
        ("bare_atomic", bare_insert_in_transaction),
        ("service", service),
    )
    for _ in range(args.repeats):
        for name, action in actions:
            start = time.perf_counter()
            for _ in range(args.appends):
                action()
            rates[name].append(args.appends / (time.perf_counter() - start))
    service_rate = statistics.median(rates["service"])
    bare_rate = statistics.median(rates["bare_insert"])
    atomic_rate = statistics.median(rates["bare_atomic"])
    print(f"PostgreSQL {connection.pg_version}; {args.appends} appends x {args.repeats} repeats")
    print(f"bare ORM INSERT (autocommit):         {bare_rate:8.0f} rows/s  (median)")
    print(f"bare ORM INSERT in its transaction:   {atomic_rate:8.0f} rows/s  (median)")
    print(f"event-log service append:             {service_rate:8.0f} events/s (median)")
    print(f"ratio service / bare insert:          {service_rate / bare_rate:.2f}")
    print(f"ratio service / bare insert in a txn: {service_rate / atomic_rate:.2f}")


if __name__ == "__main__":
    main()
