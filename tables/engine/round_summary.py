"""What the reports read of one finished round, whatever the game: each game's binding fills it
from the round's audit view (the engine's own computed settlement), so the reports add up
rounds without knowing which game dealt them."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


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
