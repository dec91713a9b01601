"""Per-round amounts for the reports, read from each Round's audit view (its projected state).

The audit views are the engines' own: Siete y Medio lists every box's computed settlement
(`results`), Stud its awarded pots with their rake (`result`). Nothing is recomputed here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from reports.figures import PAYOUT_CLASSES, Payout, RoundSummary
from reports.shifts import ShiftKey
from tables.models import Round, Table, TableEvent

SIETE = "siete_y_medio"
STUD = "seven_card_stud"
# Settled boxes whose stake meets the bank; a voided or removed box had its stake returned.
SETTLED_OUTCOMES = frozenset({"player_bust", "bank_bust_win", "win", "push", "loss"})
WINNING_OUTCOMES = frozenset({"bank_bust_win", "win"})


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


# Only the parts of an audit view the reports read: far less JSON to fetch and decode.
SUMMARY_KEYS = ("results", "voided", "result", "phase", "seats")


@dataclass(frozen=True)
class RoundAmounts:
    number: int
    status: str
    state: dict[str, Any]


def shift_rounds(
    table: Table, window: tuple[int, int] | None, keys: tuple[str, ...] = SUMMARY_KEYS
) -> list[RoundAmounts]:
    """The rounds whose last event lies in the shift's window, finished ones only, with the
    audit-view `keys` their reader needs."""
    if window is None:
        return []
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
    if game == STUD:
        return stud_summary(str(round_.number), round_.state)
    return siete_summary(
        str(round_.number), round_.state, voided=round_.status == Round.Status.VOIDED
    )


def siete_summary(round_id: str, state: Mapping[str, Any], *, voided: bool) -> RoundSummary:
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


def stud_summary(round_id: str, state: Mapping[str, Any]) -> RoundSummary:
    """A hand's handle is everything put in its pots; the house's share is the rake."""
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


def payout_rows(state: Mapping[str, Any]) -> list[tuple[int, int, int]]:
    """(box, computed net, recorded payout) for every Siete box whose payout was recorded."""
    rows = []
    for row in state.get("results") or ():
        if row.get("recorded_payout") is not None:
            rows.append((row["box"], row["net"], row["recorded_payout"]))
    return rows
