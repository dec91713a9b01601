"""Settlement of one box against the bank, and the chip arithmetic of its payout.

This is the single implementation used by the live rounds and the simulation alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from tables.engine.siete.hands import BUST, classify, hand_strength, hand_total
from tables.engine.siete.settings import SieteSettings

PLAYER_BUST = "player_bust"
BANK_BUST_WIN = "bank_bust_win"
WIN = "win"
PUSH = "push"
LOSS = "loss"
OUTCOMES = (PLAYER_BUST, BANK_BUST_WIN, WIN, PUSH, LOSS)


@dataclass(frozen=True)
class BoxResult:
    """The computed settlement of a box; `net` is signed (+ paid to the player, - collected)."""

    outcome: str
    hand_class: str
    total_halves: int
    stake: int
    net: int
    breakage: Fraction  # exact net win minus what is paid: > 0 kept by the house, < 0 paid extra

    @property
    def returned(self) -> int:
        """What goes back to the player: the stake plus the net win, nothing on a loss."""
        return self.stake + self.net


def net_win(stake: int, ratio: Fraction, settings: SieteSettings) -> tuple[int, Fraction]:
    """The net win on `stake` at `ratio`, rounded to the smallest chip, and its breakage."""
    exact = stake * ratio
    chips, remainder = divmod(exact, settings.chip)
    if remainder and settings.breakage == "up":
        chips += 1
    paid = int(chips) * settings.chip
    return paid, exact - paid


def box_outcome(
    player_class: str, player_total: int, bank_class: str, bank_total: int, ties: str
) -> str:
    """The outcome of a box against the bank, from the classes and totals of the two hands.

    A busted player loses even if the bank busts; a busted bank pays every other box; otherwise
    the better hand wins and a tie follows the table's `ties` rule (`push` or `bank`).
    """
    if player_class == BUST:
        return PLAYER_BUST
    if bank_class == BUST:
        return BANK_BUST_WIN
    player_key = hand_strength(player_class, player_total)
    bank_key = hand_strength(bank_class, bank_total)
    if player_key < bank_key or (player_key == bank_key and ties == "bank"):
        return LOSS
    return PUSH if player_key == bank_key else WIN


def settle_box(
    player: Sequence[str], bank: Sequence[str], stake: int, settings: SieteSettings
) -> BoxResult:
    """Settle a box holding the known cards `player` against the bank's known cards `bank`:
    the outcome by :func:`box_outcome`, a win paid by the class of the player's own hand."""
    player_class, player_total = classify(player), hand_total(player)
    if player_class == BUST:  # the bank's cards do not matter, and may not all be known yet
        return bust_result(player, stake)
    outcome = box_outcome(
        player_class, player_total, classify(bank), hand_total(bank), settings.ties
    )
    if outcome == LOSS:
        return BoxResult(LOSS, player_class, player_total, stake, -stake, Fraction(0))
    if outcome == PUSH:
        return BoxResult(PUSH, player_class, player_total, stake, 0, Fraction(0))
    paid, breakage = net_win(stake, settings.ratio(player_class), settings)
    return BoxResult(outcome, player_class, player_total, stake, paid, breakage)


def bust_result(player: Sequence[str], stake: int) -> BoxResult:
    """The settlement of a box that is bust, whatever the bank holds."""
    return BoxResult(PLAYER_BUST, BUST, hand_total(player), stake, -stake, Fraction(0))


def format_amount(amount: Fraction) -> str:
    """An exact amount as a string: a decimal when it terminates, otherwise `n/d`."""
    if amount.denominator == 1:
        return str(amount.numerator)
    denominator = amount.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator != 1:
        return f"{amount.numerator}/{amount.denominator}"
    places = 0
    while (amount * 10**places).denominator != 1:
        places += 1
    scaled = int(amount * 10**places)
    sign = "-" if scaled < 0 else ""
    whole, fraction = divmod(abs(scaled), 10**places)
    return f"{sign}{whole}.{fraction:0{places}d}"


def parse_amount(text: str) -> Fraction:
    """Read back an amount written by `format_amount`."""
    return Fraction(text)
