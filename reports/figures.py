"""The shift's figures: win, hold, drop, rake and the totals of the settled rounds.

Money stays exact (integers of the money unit, or :class:`~fractions.Fraction` for theoretical
win and breakage) until :func:`quantise` turns it into a :class:`~decimal.Decimal` at the edge.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from tables.engine.errors import InvalidInputError

# Siete y Medio's winning hand classes in paytable order (RULES.md §1.4).
PAYOUT_CLASSES = ("real", "siete_y_medio", "puntaje")


def table_win(*, drop: int, opener: int, closer: int, fills: int, credits: int) -> int:
    """House-banked win: what reached the drop box and the tray, less what the tray started with
    and what the cage sent."""
    return drop + closer + credits - opener - fills


def hold_percent(win: int, drop: int, *, places: int = 2) -> Decimal | None:
    """Win as a percentage of the drop; there is no hold on a table with no drop."""
    if drop == 0:
        return None
    return quantise(Fraction(win * 100, drop), places)


def estimated_drop(buy_in_amounts: Iterable[int]) -> int:
    return sum(buy_in_amounts)


def stud_revenue(rake_by_pot: Iterable[int]) -> int:
    """A poker table's revenue is the rake; the house never banks a hand."""
    return sum(rake_by_pot)


def theoretical_win(handle: int, house_edge: Fraction | Decimal) -> Fraction:
    """What the house should win on average from ``handle`` at the game's exact edge."""
    return handle * Fraction(house_edge)


def quantise(value: Fraction | int, places: int = 2) -> Decimal:
    """Round half to even at ``places`` decimals, exactly (no binary floating point)."""
    scaled = round(Fraction(value) * 10**places)
    return Decimal(scaled).scaleb(-places)


@dataclass(frozen=True)
class Payout:
    """One winning box: its hand class and the net win paid on top of the returned stake."""

    hand_class: str
    amount: int


@dataclass(frozen=True)
class RoundSummary:
    """What the reports need of one settled (or voided) round.

    ``house_net`` is the house's result on the round (stakes lost less net wins paid; for Stud,
    the rake). ``breakage`` is computed net wins less what was paid, positive when rounding
    favoured the house. ``rake_by_pot`` lists the main pot's rake first, then each side pot's.
    """

    round_id: str
    handle: int
    house_net: int
    boxes: int = 0
    payouts: tuple[Payout, ...] = ()
    pushes: int = 0
    busts: int = 0
    breakage: Fraction = Fraction(0)
    rake_by_pot: tuple[int, ...] = ()
    voided: bool = False


@dataclass(frozen=True)
class ClassTotal:
    count: int
    amount: int


@dataclass(frozen=True)
class RoundTotals:
    hands_played: int
    rounds_voided: int
    boxes_played: int
    handle: int
    payouts_by_class: Mapping[str, ClassTotal]
    pushes: int
    busts: int
    breakage: Fraction
    rake_by_pot: tuple[int, ...]
    house_net: int

    @property
    def rake_total(self) -> int:
        return sum(self.rake_by_pot)

    @property
    def payouts_total(self) -> int:
        return sum(total.amount for total in self.payouts_by_class.values())


def summarise_rounds(rounds: Iterable[RoundSummary]) -> RoundTotals:
    """Add up the shift's rounds; a voided round counts only as voided (its stakes went back)."""
    every_round = tuple(rounds)
    for summary in every_round:
        _verify_round(summary)
    played = [summary for summary in every_round if not summary.voided]
    return RoundTotals(
        hands_played=len(played),
        rounds_voided=len(every_round) - len(played),
        boxes_played=sum(summary.boxes for summary in played),
        handle=sum(summary.handle for summary in played),
        payouts_by_class=_payouts_by_class(played),
        pushes=sum(summary.pushes for summary in played),
        busts=sum(summary.busts for summary in played),
        breakage=sum((summary.breakage for summary in played), Fraction(0)),
        rake_by_pot=_rake_by_pot(played),
        house_net=sum(summary.house_net for summary in played),
    )


def _payouts_by_class(rounds: list[RoundSummary]) -> dict[str, ClassTotal]:
    counts = dict.fromkeys(PAYOUT_CLASSES, 0)
    amounts = dict.fromkeys(PAYOUT_CLASSES, 0)
    for summary in rounds:
        for payout in summary.payouts:
            counts[payout.hand_class] += 1
            amounts[payout.hand_class] += payout.amount
    return {name: ClassTotal(counts[name], amounts[name]) for name in PAYOUT_CLASSES}


def _rake_by_pot(rounds: list[RoundSummary]) -> tuple[int, ...]:
    depth = max((len(summary.rake_by_pot) for summary in rounds), default=0)
    totals = [0] * depth
    for summary in rounds:
        for index, rake in enumerate(summary.rake_by_pot):
            totals[index] += rake
    return tuple(totals)


def _verify_round(summary: RoundSummary) -> None:
    amounts = (summary.handle, summary.boxes, summary.pushes, summary.busts, *summary.rake_by_pot)
    if any(amount < 0 for amount in amounts) or any(p.amount < 0 for p in summary.payouts):
        raise InvalidInputError(
            f"Round {summary.round_id} has a negative amount or count.", code="negative_amount"
        )
    for payout in summary.payouts:
        if payout.hand_class not in PAYOUT_CLASSES:
            raise InvalidInputError(
                f"Round {summary.round_id} pays an unknown hand class {payout.hand_class!r}.",
                code="unknown_hand_class",
            )
