"""Seven-Card Stud's hand as the reports read it: the awarded pots of the engine's audit view.

A hand's handle is everything put in its pots; the house's share is the rake. `round_summary`
is the reference reading (and the one on SQLite); `summed_rounds` is the same reading done by
PostgreSQL over a shift (tests/reports/test_round_sums.py holds both equal). Stud has no house
edge, so no settlement seqs are read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from casino.db_router import read_connection
from tables.engine.round_summary import RoundSummary
from tables.games import SummedRounds, Window
from tables.models import Round, Table

SUMMARY_KEYS = ("result", "phase", "seats")


def round_summary(round_id: str, state: Mapping[str, Any], voided: bool) -> RoundSummary:
    result = state.get("result")
    if state.get("phase") == "voided" or not result:
        return RoundSummary(round_id=round_id, handle=0, house_net=0, voided=True)
    pots = sorted(result["pots"], key=lambda pot: int(pot["index"]))
    return RoundSummary(
        round_id=round_id,
        handle=sum(pot["amount"] for pot in pots),
        house_net=result["rake_total"],
        boxes=sum(1 for seat in state.get("seats", ()) if seat.get("committed")),
        rake_by_pot=tuple(pot["rake"] for pot in pots),
    )


# For each finished hand of the window: its number, phase, whether it has a result, the rake,
# the pots by index, and the seats with chips committed. (See siete_summary for the casts and
# the `r.id IS NOT NULL` that keeps the planner from caching the sums by their JSON.)
SUMS_SQL = """
SELECT r.number,
    v.phase ->> 0,
    jsonb_typeof(v.result) = 'object' AND v.result <> '{}'::jsonb,
    (v.result ->> 'rake_total')::bigint,
    pot.amounts, pot.rakes,
    seat.committed
FROM tables_round r
CROSS JOIN LATERAL jsonb_to_record(r.state) AS v(phase jsonb, result jsonb, seats jsonb)
LEFT JOIN LATERAL (
    SELECT COALESCE(SUM((p ->> 'amount')::bigint), 0)::bigint AS amounts,
        string_agg(p ->> 'rake', ' ' ORDER BY (p ->> 'index')::int) AS rakes
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(v.result -> 'pots') = 'array'
        THEN v.result -> 'pots' ELSE '[]'::jsonb END) AS p
    WHERE r.id IS NOT NULL
) pot ON true
LEFT JOIN LATERAL (
    SELECT COUNT(*) FILTER (WHERE s -> 'committed' NOT IN
        ('0'::jsonb, 'false'::jsonb, 'null'::jsonb, '""'::jsonb)) AS committed
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(v.seats) = 'array'
        THEN v.seats ELSE '[]'::jsonb END) AS s
    WHERE r.id IS NOT NULL
) seat ON true
WHERE r.table_id = %(table)s AND r.last_seq BETWEEN %(first)s AND %(last)s
    AND r.status <> %(open)s
ORDER BY r.number
"""


def summed_rounds(table: Table, window: Window) -> SummedRounds:
    params: dict[str, Any] = {
        "table": table.pk,
        "first": window[0],
        "last": window[1],
        "open": Round.Status.OPEN,
    }
    with read_connection().cursor() as cursor:
        cursor.execute(SUMS_SQL, params)
        rows = cursor.fetchall()
    return [_summed(row) for row in rows], {}


def _summed(row: tuple) -> RoundSummary:  # type: ignore[type-arg]
    number, phase, has_result, rake_total, amounts, rakes, committed = row
    if phase == "voided" or not has_result:
        return RoundSummary(round_id=str(number), handle=0, house_net=0, voided=True)
    return RoundSummary(
        round_id=str(number),
        handle=amounts,
        house_net=rake_total,
        boxes=committed,
        rake_by_pot=tuple(int(rake) for rake in rakes.split(" ")) if rakes else (),
    )
