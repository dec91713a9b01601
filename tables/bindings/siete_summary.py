"""Siete y Medio's round as the reports read it: the settled boxes of the engine's audit view.

`round_summary` is the reference reading (and the one on SQLite); `summed_rounds` is the same
reading done by PostgreSQL over a shift, so the audit views' JSON is not decoded in Python: the
database only picks out and adds up numbers the engine already computed (stakes, nets, hand
classes, breakage); which outcomes count as settled or winning, and which hand classes are paid,
come from the constants below, passed as parameters. tests/reports/test_round_sums.py holds both
readings equal on played shifts.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from casino.db_router import read_connection
from tables.engine.round_summary import Payout, RoundSummary
from tables.games import SummedRounds, Window
from tables.models import Round, Table

# The winning hand classes in paytable order (RULES.md §1.4).
PAYOUT_CLASSES = ("real", "siete_y_medio", "puntaje")
# Settled boxes whose stake meets the bank; a voided or removed box had its stake returned.
SETTLED_OUTCOMES = frozenset({"player_bust", "bank_bust_win", "win", "push", "loss"})
WINNING_OUTCOMES = frozenset({"bank_bust_win", "win"})
SUMMARY_KEYS = ("results", "voided")
ROUND_SETTLED = "round.settled"


def round_summary(round_id: str, state: Mapping[str, Any], voided: bool) -> RoundSummary:
    results = [row for row in state.get("results") or () if row.get("outcome") in SETTLED_OUTCOMES]
    if voided or state.get("voided"):
        return RoundSummary(round_id=round_id, handle=0, house_net=0, voided=True)
    return RoundSummary(
        round_id=round_id,
        handle=sum(row["stake"] for row in results),
        house_net=-sum(row["net"] for row in results),
        boxes=len(results),
        payouts=tuple(
            Payout(row["hand_class"], row["net"])
            for row in results
            if row["outcome"] in WINNING_OUTCOMES and row["hand_class"] in PAYOUT_CLASSES
        ),
        pushes=sum(1 for row in results if row["outcome"] == "push"),
        busts=sum(1 for row in results if row["outcome"] == "player_bust"),
        breakage=sum(
            (Fraction(row["breakage"]) for row in results if row["breakage"] != "0"), Fraction(0)
        ),
    )


# For each finished round of the window: its number, status, the seq of its `round.settled`
# (the theoretical win's settings version) and the sums of its settled boxes, in box order.
# (A SUM of bigints is numeric in PostgreSQL: cast back, so the sums come as ints.)
# `r.id IS NOT NULL` (always true) ties each per-round sum to the row: otherwise the planner
# caches the sums by their JSON input, and hashing that JSON cost more than summing it again.
# The settlements are joined through the log's (table, type) index: looked up round by round,
# each round's thirty-odd events were read from the heap to find one.
SUMS_SQL = """
SELECT r.number, r.status,
    settled.seq,
    COALESCE(v.voided = 'true'::jsonb, false),
    box.boxes, box.stakes, box.nets, box.pushes, box.busts, box.payouts, box.breakages
FROM tables_round r
LEFT JOIN (
    SELECT round_id, MAX(seq) AS seq FROM tables_tableevent
    WHERE table_id = %(table)s AND type = %(settled)s
    GROUP BY round_id
) settled ON settled.round_id = r.id
CROSS JOIN LATERAL jsonb_to_record(r.state) AS v(results jsonb, voided jsonb)
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
    WHERE r.id IS NOT NULL AND x ->> 'outcome' = ANY(%(settled_outcomes)s)
) box ON true
WHERE r.table_id = %(table)s AND r.last_seq BETWEEN %(first)s AND %(last)s
    AND r.status <> %(open)s
ORDER BY r.number
"""


def summed_rounds(table: Table, window: Window) -> SummedRounds:
    """The shift's round summaries, and the seq of each settled round's `round.settled`."""
    params: dict[str, Any] = {
        "settled": ROUND_SETTLED,
        "winning": sorted(WINNING_OUTCOMES),
        "classes": list(PAYOUT_CLASSES),
        "settled_outcomes": sorted(SETTLED_OUTCOMES),
        "table": table.pk,
        "first": window[0],
        "last": window[1],
        "open": Round.Status.OPEN,
    }
    with read_connection().cursor() as cursor:
        cursor.execute(SUMS_SQL, params)
        rows = cursor.fetchall()
    summaries, settled_seqs = [], {}
    for row in rows:
        number, settled_seq = row[0], row[2]
        if settled_seq is not None:
            settled_seqs[number] = settled_seq
        summaries.append(_summed(row))
    return summaries, settled_seqs


def _summed(row: tuple) -> RoundSummary:  # type: ignore[type-arg]
    number, status, _, voided, boxes, stakes, nets, pushes, busts, payouts, breakages = row
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
