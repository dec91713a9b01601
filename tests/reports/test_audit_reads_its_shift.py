"""The shift's audit reads the rounds and snapshots of its own walk, and the custody reads
the shift's own custody facts, not the table's history.

Rows read are the database's own count (EXPLAIN ANALYZE: rows returned plus rows a filter
removed, times loops, per scan of the table), so the test pins the queries' bounds, not a time.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from reports.demo.shift import Staff
from reports.inputs.audit import table_findings
from reports.inputs.rounds import shift_window
from reports.models import Slip
from reports.shifts import ShiftKey
from tables.engine.custody.codec import COUNTED, CUSTODY_TYPES
from tables.models import EngineSnapshot, Round, Table, TableEvent
from tables.services.custody.log import (
    custody_events,
    last_count_event,
    last_opener_event,
    previous_closer,
)
from tables.services.floor import CUSTODY_COUNTS, books_closed
from tests.reports.audit_history import history_tables, play_audited_shifts, shift_keys

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="rows read are PostgreSQL's"),
]
ROUNDS = 3
PRIOR_SHIFTS = 3
BOUNDED = (Round._meta.db_table, EngineSnapshot._meta.db_table, Slip._meta.db_table)
EVENTS = TableEvent._meta.db_table


@pytest.fixture
def staff(
    dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User, cashier_carmen: User
) -> Staff:
    return Staff(dealer_dora, pit_boss_paula, pit_boss_pedro, cashier_carmen)


def rows_read(sql: str, relations: tuple[str, ...] = BOUNDED) -> dict[str, int]:
    """Rows of each table in `relations` one statement reads."""
    # A test's tables are small enough for the planner to scan them whole whatever the
    # indexes; without sequential scans it takes the best bound an index gives, the plan
    # a long history gets.
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql)
        plan = cursor.fetchone()[0]
    totals: dict[str, int] = {}

    def walk(node: dict[str, Any]) -> None:
        relation = node.get("Relation Name")
        if relation in relations:
            read = node["Actual Rows"] + node.get("Rows Removed by Filter", 0)
            totals[relation] = totals.get(relation, 0) + read * node["Actual Loops"]
        for child in node.get("Plans", []):
            walk(child)

    walk((json.loads(plan) if isinstance(plan, str) else plan)[0]["Plan"])
    return totals


def play_shifts(staff: Staff) -> tuple[list[Table], list[ShiftKey]]:
    """PRIOR_SHIFTS + 1 whole shifts at a table of each game, each followed by its audit."""
    tables = history_tables("Reads")
    keys = shift_keys(PRIOR_SHIFTS + 1)
    play_audited_shifts(tables, keys, rounds=ROUNDS, staff=staff)
    with connection.cursor() as cursor:  # the planner sees the tables as they now are
        cursor.execute("ANALYZE " + ", ".join((*BOUNDED, EVENTS)))
    return tables, keys


def test_the_audit_after_prior_shifts_reads_only_its_walk(staff: Staff) -> None:
    tables, keys = play_shifts(staff)
    for table in tables:
        with CaptureQueriesContext(connection) as queries:
            check = table_findings(table, keys[-1]).chain[0]
        walked_from = check.head_seq - check.events_checked
        assert walked_from > 0  # from a checkpoint, not seq 1
        # What the walk covers: the rounds ending in it (and the one it starts in), and the
        # snapshots it passes; the table holds PRIOR_SHIFTS more shifts' worth of each.
        bound = {
            Round._meta.db_table: Round.objects.filter(
                table=table, last_seq__gte=walked_from
            ).count()
            + 1,
            EngineSnapshot._meta.db_table: EngineSnapshot.objects.filter(
                table=table, seq__gte=walked_from
            ).count(),
            # The slips of the shifts the walk replays (the last; the one before, at most).
            Slip._meta.db_table: sum(
                Slip.objects.filter(table=table, gaming_day=key.gaming_day, shift=key.shift).count()
                for key in keys[-2:]
            ),
        }
        assert Round.objects.filter(table=table).count() > 2 * bound[Round._meta.db_table]
        assert Slip.objects.filter(table=table).count() > bound[Slip._meta.db_table]
        for query in queries.captured_queries:
            sql = query["sql"]
            if not sql.startswith("SELECT") or not any(name in sql for name in BOUNDED):
                continue
            for relation, read in rows_read(sql).items():
                assert read <= bound[relation], (table.game, relation, read, bound, sql[:300])


def shift_custody(table: Table, key: ShiftKey) -> int:
    """How many custody facts the shift `key` recorded at `table`."""
    day, shift = key.gaming_day.isoformat(), key.shift
    return sum(
        1
        for payload in TableEvent.objects.filter(table=table, type__in=CUSTODY_TYPES)
        .values_list("payload", flat=True)
        .iterator()
        if payload.get("gaming_day") == day and payload.get("shift") == shift
    )


@contextmanager
def log_reads() -> Iterator[list[tuple[int, str]]]:
    """(log rows read, statement) of each statement on the log run inside the block."""
    found: list[tuple[int, str]] = []
    with CaptureQueriesContext(connection) as queries:
        yield found
    for query in queries.captured_queries:
        if query["sql"].startswith("SELECT") and EVENTS in query["sql"]:
            found.append((rows_read(query["sql"], (EVENTS,)).get(EVENTS, 0), query["sql"]))


def test_the_custody_reads_after_prior_shifts_read_only_the_shifts_facts(staff: Staff) -> None:
    tables, keys = play_shifts(staff)
    for table in tables:
        latest = last_opener_event(table)
        assert latest is not None
        per_shift = {key: shift_custody(table, key) for key in keys}
        assert sum(per_shift.values()) > 3 * per_shift[keys[-1]]
        # Each shift's facts, not the others': the oldest shift and the latest alike.
        for key in (keys[0], keys[-1]):
            with log_reads() as reads:
                custody_events(table, key)
                shift_window(table, key)
            assert reads
            for read, sql in reads:
                assert read <= per_shift[key], (table.game, str(key), read, per_shift, sql[:300])
        # The table's latest custody facts: about one row per type asked for (its latest,
        # then the row itself), whatever the number of shifts before.
        latest_reads = (
            (1, partial(last_opener_event, table)),
            (len(COUNTED), partial(last_count_event, table)),
            (1, partial(previous_closer, table)),
            (1, partial(previous_closer, table, before_seq=latest.seq)),
            (len(CUSTODY_COUNTS), partial(books_closed, table)),
        )
        for types, read_latest in latest_reads:
            with log_reads() as reads:
                read_latest()
            assert len(reads) == 1
            read, sql = reads[0]
            assert read <= 2 * types, (table.game, read, sql[:300])
