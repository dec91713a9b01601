"""Per-round amounts summed by PostgreSQL, so the audit views' JSON is not decoded in Python.

The same reading as :func:`reports.inputs.rounds.siete_summary` and
:func:`reports.inputs.rounds.stud_summary`, which stay the reference (and the reading on SQLite):
the database only picks out and adds up numbers the engines already computed into each round's
audit view (stakes, nets, pot amounts, rakes); which outcomes count as settled or winning, and
which hand classes are paid, come from the same Python constants, passed as parameters. Nothing
about the games is decided here. tests/reports/test_round_sums.py holds both readings equal on
played shifts.

One statement reads a table's shift: for each finished round its number, status, the seq of its
`round.settled` event (the theoretical win's settings version; Siete only, Stud has no edge) and
the sums. The settlements are joined through the log's (table, type) index, as the separate
query did before: looked up round by round, each round's thirty-odd events were read from the
heap to find one, which cost as much as the sums.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from casino.db_router import read_connection
from reports.figures import PAYOUT_CLASSES, Payout, RoundSummary
from reports.inputs.rounds import SETTLED_OUTCOMES, STUD, WINNING_OUTCOMES
from tables.models import Round, Table

ROUND_SETTLED = "round.settled"

# Siete: the settled boxes of `results`, in box order (as listed), summed per round.
# Stud: the pots of `result` by index, and the seats with chips committed.
# (A SUM of bigints is numeric in PostgreSQL: cast back, so the sums come as ints.)
# `r.id IS NOT NULL` (always true) ties each per-round sum to the row: otherwise the planner
# caches the sums by their JSON input, and hashing that JSON cost more than summing it again.
ROUND_SUMS_SQL = """
SELECT r.number, r.status,
    settled.seq,
    COALESCE(v.voided = 'true'::jsonb, false),
    box.boxes, box.stakes, box.nets, box.pushes, box.busts, box.payouts, box.breakages,
    v.phase ->> 0,
    jsonb_typeof(v.result) = 'object' AND v.result <> '{}'::jsonb,
    (v.result ->> 'rake_total')::bigint,
    pot.amounts, pot.rakes,
    seat.committed
FROM tables_round r
LEFT JOIN (
    SELECT round_id, MAX(seq) AS seq FROM tables_tableevent
    WHERE table_id = %(table)s AND type = %(settled)s AND %(game)s <> %(stud)s
    GROUP BY round_id
) settled ON settled.round_id = r.id
CROSS JOIN LATERAL jsonb_to_record(r.state)
    AS v(results jsonb, voided jsonb, phase jsonb, result jsonb, seats jsonb)
LEFT JOIN LATERAL (
    SELECT COUNT(*) AS boxes,
        COALESCE(SUM((x ->> 'stake')::bigint), 0)::bigint AS stakes,
        COALESCE(SUM((x ->> 'net')::bigint), 0)::bigint AS nets,
        COUNT(*) FILTER (WHERE x ->> 'outcome' = 'push') AS pushes,
        COUNT(*) FILTER (WHERE x ->> 'outcome' = 'player_bust') AS busts,
        string_agg((x ->> 'hand_class') || ' ' || (x ->> 'net'), ' ' ORDER BY n)
            FILTER (WHERE x ->> 'outcome' = ANY(%(winning)s)
                AND x ->> 'hand_class' = ANY(%(classes)s)) AS payouts,
        string_agg(x ->> 'breakage', ' ' ORDER BY n)
            FILTER (WHERE x ->> 'breakage' <> '0') AS breakages
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(v.results) = 'array'
        THEN v.results ELSE '[]'::jsonb END) WITH ORDINALITY AS b(x, n)
    WHERE r.id IS NOT NULL AND %(game)s <> %(stud)s AND x ->> 'outcome' = ANY(%(settled_outcomes)s)
) box ON true
LEFT JOIN LATERAL (
    SELECT COALESCE(SUM((p ->> 'amount')::bigint), 0)::bigint AS amounts,
        string_agg(p ->> 'rake', ' ' ORDER BY (p ->> 'index')::int) AS rakes
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(v.result -> 'pots') = 'array'
        THEN v.result -> 'pots' ELSE '[]'::jsonb END) AS p
    WHERE r.id IS NOT NULL AND %(game)s = %(stud)s
) pot ON true
LEFT JOIN LATERAL (
    SELECT COUNT(*) FILTER (WHERE s -> 'committed' NOT IN
        ('0'::jsonb, 'false'::jsonb, 'null'::jsonb, '""'::jsonb)) AS committed
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(v.seats) = 'array'
        THEN v.seats ELSE '[]'::jsonb END) AS s
    WHERE r.id IS NOT NULL AND %(game)s = %(stud)s
) seat ON true
WHERE r.table_id = %(table)s AND r.last_seq BETWEEN %(first)s AND %(last)s
    AND r.status <> %(open)s
ORDER BY r.number
"""


def summed_rounds(
    table: Table, window: tuple[int, int]
) -> tuple[list[RoundSummary], dict[int, int]]:
    """The shift's round summaries, and the seq of each settled round's `round.settled`."""
    params: dict[str, Any] = {
        "settled": ROUND_SETTLED,
        "winning": sorted(WINNING_OUTCOMES),
        "classes": list(PAYOUT_CLASSES),
        "settled_outcomes": sorted(SETTLED_OUTCOMES),
        "game": table.game,
        "stud": STUD,
        "table": table.pk,
        "first": window[0],
        "last": window[1],
        "open": Round.Status.OPEN,
    }
    with read_connection().cursor() as cursor:
        cursor.execute(ROUND_SUMS_SQL, params)
        rows = cursor.fetchall()
    summaries, settled_seqs = [], {}
    for row in rows:
        number, settled_seq = row[0], row[2]
        if settled_seq is not None:
            settled_seqs[number] = settled_seq
        summaries.append(_stud(row) if table.game == STUD else _siete(row))
    return summaries, settled_seqs


def _siete(row: tuple) -> RoundSummary:  # type: ignore[type-arg]
    number, status, _, voided, boxes, stakes, nets, pushes, busts, payouts, breakages = row[:11]
    if status == Round.Status.VOIDED or voided:
        return RoundSummary(round_id=str(number), handle=0, house_net=0, voided=True)
    paid = payouts.split(" ") if payouts else []
    return RoundSummary(
        round_id=str(number),
        handle=stakes,
        house_net=-nets,
        boxes=boxes,
        payouts=tuple(
            Payout(paid[index], int(paid[index + 1])) for index in range(0, len(paid), 2)
        ),
        pushes=pushes,
        busts=busts,
        breakage=sum((Fraction(part) for part in breakages.split(" ")), Fraction(0))
        if breakages
        else Fraction(0),
    )


def _stud(row: tuple) -> RoundSummary:  # type: ignore[type-arg]
    number, phase, has_result, rake_total, amounts, rakes, committed = (row[0], *row[11:])
    if phase == "voided" or not has_result:
        return RoundSummary(round_id=str(number), handle=0, house_net=0, voided=True)
    return RoundSummary(
        round_id=str(number),
        handle=amounts,
        house_net=rake_total,
        boxes=committed,
        rake_by_pot=tuple(int(rake) for rake in rakes.split(" ")) if rakes else (),
    )
