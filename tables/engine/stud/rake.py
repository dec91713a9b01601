"""The house's rake: a percentage of each pot, rounded down to the rake unit, capped per hand."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_FLOOR, Decimal

from tables.engine.stud.settings import StudSettings


def rake_pots(settings: StudSettings, amounts: Sequence[int], *, raked: bool) -> tuple[int, ...]:
    """The rake of each pot, main pot first, until the hand's cap is reached.

    `raked` is false when no 4th-street card was dealt: a hand won on 3rd street pays no rake.
    """
    if not raked or settings.rake_percent == 0:
        return tuple(0 for _ in amounts)
    remaining = settings.rake_cap
    rakes = []
    for amount in amounts:
        share = (Decimal(amount) * settings.rake_percent / 100).to_integral_value(ROUND_FLOOR)
        rake = int(share) // settings.rake_unit * settings.rake_unit
        if remaining is not None:
            rake = min(rake, remaining)
            remaining -= rake
        rakes.append(rake)
    return tuple(rakes)
