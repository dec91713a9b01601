"""A shift's round summaries summed by PostgreSQL, where the game's binding offers it.

Each binding's `summed_rounds` is the same reading as its `round_summary` (the reference, and the
reading on SQLite) done in SQL, so the audit views' JSON is not decoded in Python;
tests/reports/test_round_sums.py holds both readings equal on played shifts. A game without a
fast path is read in Python on every database.
"""

from __future__ import annotations

from reports.figures import RoundSummary
from reports.inputs.rounds import round_summary, shift_rounds
from tables.games import binding_for
from tables.models import Table


def summed_rounds(
    table: Table, window: tuple[int, int]
) -> tuple[list[RoundSummary], dict[int, int] | None]:
    """The shift's round summaries, and the seq of each settled round's settlement when the
    fast path read it (None: the caller reads them if it needs them)."""
    fast_path = binding_for(table.game).summed_rounds
    if fast_path is None:
        return [round_summary(table.game, row) for row in shift_rounds(table, window)], None
    return fast_path(table, window)
