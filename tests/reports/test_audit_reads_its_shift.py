"""The shift's audit reads the rounds and snapshots of its own walk, not the table's history.

Rows read are the database's own count (EXPLAIN ANALYZE: rows returned plus rows a filter
removed, times loops, per scan of the table), so the test pins the queries' bounds, not a time.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from reports.demo.shift import Staff, simulate_shift, simulation_tables
from reports.inputs.audit import table_findings
from reports.shifts import ShiftKey, floor_clock
from tables.models import EngineSnapshot, Round, Table

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="rows read are PostgreSQL's"),
]
ROUNDS = 3
PRIOR_SHIFTS = 3
BOUNDED = (Round._meta.db_table, EngineSnapshot._meta.db_table)


@pytest.fixture
def staff(
    dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User, cashier_carmen: User
) -> Staff:
    return Staff(dealer_dora, pit_boss_paula, pit_boss_pedro, cashier_carmen)


def shift_keys(count: int) -> list[ShiftKey]:
    """The last `count` ended shifts, oldest first (the log's seqs rise with their dates)."""
    clock = floor_clock()
    keys = [clock.last_ended(datetime.now().astimezone())]
    while len(keys) < count:
        keys.insert(0, clock.last_ended(clock.bounds(keys[0])[0]))
    return keys


def rows_read(sql: str) -> dict[str, int]:
    """Rows of each table in BOUNDED one statement reads."""
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
        if relation in BOUNDED:
            read = node["Actual Rows"] + node.get("Rows Removed by Filter", 0)
            totals[relation] = totals.get(relation, 0) + read * node["Actual Loops"]
        for child in node.get("Plans", []):
            walk(child)

    walk((json.loads(plan) if isinstance(plan, str) else plan)[0]["Plan"])
    return totals


def test_the_audit_after_prior_shifts_reads_only_its_walk(staff: Staff) -> None:
    tables = simulation_tables(2)  # one of each game
    keys = shift_keys(PRIOR_SHIFTS + 1)
    for number, key in enumerate(keys):
        simulate_shift(tables, rounds=ROUNDS, seed=number, staff=staff, key=key, run_reports=False)
        for table in tables:
            table.refresh_from_db()
            assert table_findings(table, key).chain[0].verified  # the next one's checkpoint
    with connection.cursor() as cursor:  # the planner sees the tables as they now are
        cursor.execute("ANALYZE " + ", ".join(BOUNDED))
    for table in Table.objects.all():
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
        }
        assert Round.objects.filter(table=table).count() > 2 * bound[Round._meta.db_table]
        for query in queries.captured_queries:
            sql = query["sql"]
            if not sql.startswith("SELECT") or not any(name in sql for name in BOUNDED):
                continue
            for relation, read in rows_read(sql).items():
                assert read <= bound[relation], (table.game, relation, read, bound, sql[:300])
