"""The shift's figures: win, hold, drop, rake and the totals of the settled rounds.

Money stays exact (integers of the money unit, or :class:`~fractions.Fraction` for theoretical
win and breakage) until :func:`quantise` turns it into a :class:`~decimal.Decimal` at the edge.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction

from tables.engine.errors import InvalidInputError
from tables.engine.round_summary import Payout, RoundSummary

__all__ = ["Payout", "RoundSummary"]


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


def summarise_rounds(
    rounds: Iterable[RoundSummary], *, payout_classes: Sequence[str]
) -> RoundTotals:
    """Add up the shift's rounds; a voided round counts only as voided (its stakes went back).
    ``payout_classes`` are the classes the game's paytable pays (`tables.games.payout_classes`):
    each is totalled, zero or not, and a round paying another class is refused."""
    classes = tuple(payout_classes)
    every_round = tuple(rounds)
    for summary in every_round:
        _verify_round(summary, classes)
    played = [summary for summary in every_round if not summary.voided]
    return RoundTotals(
        hands_played=len(played),
        rounds_voided=len(every_round) - len(played),
        boxes_played=sum(summary.boxes for summary in played),
        handle=sum(summary.handle for summary in played),
        payouts_by_class=_payouts_by_class(played, classes),
        pushes=sum(summary.pushes for summary in played),
        busts=sum(summary.busts for summary in played),
        breakage=sum((summary.breakage for summary in played), Fraction(0)),
        rake_by_pot=_rake_by_pot(played),
        house_net=sum(summary.house_net for summary in played),
    )


def _payouts_by_class(
    rounds: list[RoundSummary], classes: tuple[str, ...]
) -> dict[str, ClassTotal]:
    counts = dict.fromkeys(classes, 0)
    amounts = dict.fromkeys(classes, 0)
    for summary in rounds:
        for payout in summary.payouts:
            counts[payout.hand_class] += 1
            amounts[payout.hand_class] += payout.amount
    return {name: ClassTotal(counts[name], amounts[name]) for name in classes}


def _rake_by_pot(rounds: list[RoundSummary]) -> tuple[int, ...]:
    depth = max((len(summary.rake_by_pot) for summary in rounds), default=0)
    totals = [0] * depth
    for summary in rounds:
        for index, rake in enumerate(summary.rake_by_pot):
            totals[index] += rake
    return tuple(totals)


def _verify_round(summary: RoundSummary, classes: tuple[str, ...]) -> None:
    amounts = (summary.handle, summary.boxes, summary.pushes, summary.busts, *summary.rake_by_pot)
    if any(amount < 0 for amount in amounts) or any(p.amount < 0 for p in summary.payouts):
        raise InvalidInputError(
            f"Round {summary.round_id} has a negative amount or count.", code="negative_amount"
        )
    for payout in summary.payouts:
        if payout.hand_class not in classes:
            raise InvalidInputError(
                f"Round {summary.round_id} pays an unknown hand class {payout.hand_class!r}.",
                code="unknown_hand_class",
            )


# The band of a shift's result (docs/reports.md, "Expected versus actual"). Two-sided normal
# quantiles to six places: statistics.NormalDist().inv_cdf(0.975) and (0.995).
BAND_Z = {"95": Decimal("1.959964"), "99": Decimal("2.575829")}
BAND_BASIS_VARIANCE = "house_edge_variance"
BAND_BASIS_RAKED = "none_raked_game"


@dataclass(frozen=True)
class BandLevel:
    confidence: str  # "95" or "99" (percent)
    z: Decimal
    low: Decimal  # the band's edges, to the cent
    high: Decimal
    outside: bool  # the actual result lies outside, decided exactly (not on the rounded edges)


@dataclass(frozen=True)
class ShiftBand:
    """Where a shift's actual win should lie if the game was dealt and paid honestly.

    ``applicable`` is false for a game the house does not bank (a raked game has no edge and
    no spread to compare with): then every figure is None and ``levels`` is empty.
    """

    basis: str
    theoretical_win: Fraction | None = None
    result_variance: Fraction | None = None  # of the shift's result: Σ stake² x unit variance
    actual_win: int | None = None
    levels: tuple[BandLevel, ...] = ()

    @property
    def applicable(self) -> bool:
        return self.basis == BAND_BASIS_VARIANCE

    @property
    def flag(self) -> str | None:
        """The widest band the result falls outside ("99", else "95"), or None when inside."""
        outside = [level.confidence for level in self.levels if level.outside]
        return max(outside, key=int) if outside else None

    def standard_deviation(self) -> Decimal | None:
        if self.result_variance is None:
            return None
        return quantise_decimal(_sqrt(self.result_variance))


def shift_band(
    *, theoretical_win: Fraction, result_variance: Fraction, actual_win: int
) -> ShiftBand:
    """theoretical win ± z x sigma x √(Σ stake²); the variance comes summed over the rounds."""
    if result_variance < 0:
        raise InvalidInputError("A variance cannot be negative.", code="negative_variance")
    distance = (actual_win - theoretical_win) ** 2
    spread = _sqrt(result_variance)
    centre = Decimal(theoretical_win.numerator) / Decimal(theoretical_win.denominator)
    levels = tuple(
        BandLevel(
            confidence=confidence,
            z=z,
            low=quantise_decimal(centre - z * spread),
            high=quantise_decimal(centre + z * spread),
            outside=distance > Fraction(z) ** 2 * result_variance,
        )
        for confidence, z in BAND_Z.items()
    )
    return ShiftBand(BAND_BASIS_VARIANCE, theoretical_win, result_variance, actual_win, levels)


def no_band() -> ShiftBand:
    """The band of a raked game: not applicable."""
    return ShiftBand(BAND_BASIS_RAKED)


def band_document(band: ShiftBand) -> dict[str, object]:
    """The band as JSON-ready values (decimals as strings) for a report or a screen."""
    theoretical = band.theoretical_win
    deviation = band.standard_deviation()
    return {
        "basis": band.basis,
        "applicable": band.applicable,
        "theoretical_win": str(quantise(theoretical)) if theoretical is not None else None,
        "standard_deviation": str(deviation) if deviation is not None else None,
        "actual_win": band.actual_win,
        "flag": band.flag,
        "levels": [
            {
                "confidence": level.confidence,
                "z": str(level.z),
                "low": str(level.low),
                "high": str(level.high),
                "outside": level.outside,
            }
            for level in band.levels
        ],
    }


def quantise_decimal(value: Decimal, places: int = 2) -> Decimal:
    # Adding 0 turns a rounded -0.00 into 0.00.
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN) + 0


def _sqrt(value: Fraction) -> Decimal:
    """√value to 28 significant digits (Decimal's own square root, no binary float)."""
    with localcontext() as context:
        context.prec = 28
        return (Decimal(value.numerator) / Decimal(value.denominator)).sqrt()
