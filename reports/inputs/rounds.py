"""Per-round amounts for the reports, read from each Round's audit view (its projected state).

The audit views are the engines' own, and each game's binding reads its own (`round_summary`,
from the `summary_keys` parts): nothing is recomputed here, and nothing here knows the games.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from reports.figures import RoundSummary
from reports.shifts import ShiftKey
from tables.games import binding_for
from tables.models import Round, Table, TableEvent


def shift_window(table: Table, key: ShiftKey) -> tuple[int, int] | None:
    """The seqs from the table's opener of the shift to its closer (or the log's head)."""
    custody = TableEvent.objects.filter(
        table=table,
        type__in=("custody.opener", "custody.closer"),
        payload__gaming_day=key.gaming_day.isoformat(),
        payload__shift=key.shift,
    )
    seqs = dict(custody.values_list("type", "seq"))
    if "custody.opener" not in seqs:
        return None
    return seqs["custody.opener"], seqs.get("custody.closer", table.head_seq)


@dataclass(frozen=True)
class RoundAmounts:
    number: int
    status: str
    state: dict[str, Any]


def shift_rounds(
    table: Table, window: tuple[int, int] | None, keys: tuple[str, ...] | None = None
) -> list[RoundAmounts]:
    """The rounds whose last event lies in the shift's window, finished ones only, with the
    audit-view `keys` their reader needs (by default the parts the game's binding summarises:
    far less JSON to fetch and decode than the whole view)."""
    if window is None:
        return []
    if keys is None:
        keys = binding_for(table.game).summary_keys
    rows = (
        Round.objects.filter(table=table, last_seq__range=window)
        .exclude(status=Round.Status.OPEN)
        .order_by("number")
        .values_list("number", "status", *(f"state__{key}" for key in keys))
    )
    return [
        RoundAmounts(number, status, dict(zip(keys, parts, strict=True)))
        for number, status, *parts in rows
    ]


def round_summary(game: str, round_: RoundAmounts) -> RoundSummary:
    """The round as its game's binding reads it."""
    voided = round_.status == Round.Status.VOIDED
    return binding_for(game).round_summary(str(round_.number), round_.state, voided)


def payout_rows(state: Mapping[str, Any]) -> list[tuple[int, int, int]]:
    """(box, computed net, recorded payout) for every Siete box whose payout was recorded."""
    rows = []
    for row in state.get("results") or ():
        if row.get("recorded_payout") is not None:
            rows.append((row["box"], row["net"], row["recorded_payout"]))
    return rows
