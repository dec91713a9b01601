"""Monte Carlo play of many rounds, dealt and settled by the engine's own rule functions.

Every round is dealt from a freshly shuffled single deck (the `every_round` default), shuffled
lazily: each card is a uniform draw from those left, which is the top of a fully shuffled deck.
Each box draws while its total is below `stand_on` and stands otherwise; the bank follows its
forced rule. Every stake is one unit, carried as 2 chips of 1 so that 3 : 2 pays exactly.

Two paths consume the random source identically and give identical results:
``via="rules"`` calls the rule functions decide uses (`bank_must_draw`, `settle_box`) directly,
fast enough for a million rounds; ``via="engine"`` sends every command through
`decide` / `evolve` and reads the settlement from the recorded events.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from random import Random
from typing import Any

from tables.engine.siete import commands as c
from tables.engine.siete.cards import DECK, SIETE_Y_MEDIO_HALVES, VALUE_HALVES
from tables.engine.siete.decide import decide_and_evolve
from tables.engine.siete.hands import PUNTAJE, REAL, SIETE_Y_MEDIO
from tables.engine.siete.rules import BANK, bank_must_draw, phase
from tables.engine.siete.settings import SieteSettings
from tables.engine.siete.settlement import (
    BANK_BUST_WIN,
    WIN,
    BoxResult,
    settle_box,
)
from tables.engine.siete.state import Box, SieteState

STAKE_CHIPS = 2  # one unit = 2 chips of 1: a 3 : 2 net win on one unit is exactly 3 chips
OUTCOME_KEYS = (
    "player_bust", "bank_bust_win", "win_real", "win_siete_y_medio", "win_puntaje", "push", "loss",
)  # fmt: skip


class FreshDeck:
    """One freshly shuffled deck per round, drawn from the top (a lazy Fisher-Yates shuffle)."""

    def __init__(self, rng: Random) -> None:
        self._rng = rng
        self._cards = list(DECK)
        self._left = len(self._cards)

    def shuffle(self) -> None:
        self._left = len(self._cards)

    def dealt(self) -> list[str]:
        """The cards drawn since the last shuffle."""
        return self._cards[self._left :]

    def draw(self) -> str:
        cards, left = self._cards, self._left
        index = self._rng.randrange(left)
        left -= 1
        cards[index], cards[left] = cards[left], cards[index]
        self._left = left
        return cards[left]


def simulation_settings(ties: str) -> SieteSettings:
    return SieteSettings.from_mapping(
        {"min_stake": STAKE_CHIPS, "max_stake": STAKE_CHIPS, "chip": 1, "ties": ties}
    )


def _halves(stand_on: Any) -> int:
    halves = Fraction(str(stand_on)) * 2
    if halves.denominator != 1 or not 1 <= halves <= SIETE_Y_MEDIO_HALVES:
        raise ValueError("stand_on is a total from 0.5 to 7.5, in steps of 0.5")
    return int(halves)


def play_round_by_rules(
    deck: FreshDeck,
    seats: int,
    stand_halves: int,
    settings: SieteSettings,
    stake: int = STAKE_CHIPS,
) -> list[BoxResult]:
    deck.shuffle()
    hands = [[deck.draw()] for _ in range(seats)]
    bank = [deck.draw()]
    values = VALUE_HALVES
    standing = False
    for hand in hands:
        total = values[hand[0]]
        while total < stand_halves:
            card = deck.draw()
            hand.append(card)
            total += values[card]
        standing = standing or total <= SIETE_Y_MEDIO_HALVES
    if standing:
        total = values[bank[0]]
        while bank_must_draw(total):
            card = deck.draw()
            bank.append(card)
            total += values[card]
    return [settle_box(hand, bank, stake, settings) for hand in hands]


class EngineTable:
    """A table played through decide/evolve, every box by the simulated strategy."""

    def __init__(self, settings: SieteSettings, deck: FreshDeck, stand_halves: int) -> None:
        self.state = SieteState(settings=settings)
        self.deck = deck
        self.stand_halves = stand_halves

    def apply(self, command: c.Command) -> None:
        self.state = decide_and_evolve(self.state, command)[0]

    def deal(self) -> None:
        self.apply(c.RecordCard(self.deck.draw(), source="shoe"))

    def play_round(self, seats: int) -> list[BoxResult]:
        self.deck.shuffle()
        for box in range(1, seats + 1):
            self.apply(c.PlaceWager(box, STAKE_CHIPS))
        for _ in range(seats + 1):
            self.deal()
        for box in range(1, seats + 1):
            self.play_box(box)
        if phase(self.state.round) == BANK:
            self.apply(c.RevealBank())
            while phase(self.state.round) == BANK:
                self.deal()
        round_ = self.state.round
        assert round_ is not None
        assert round_.settled
        return [box.result for box in round_.boxes if box.result is not None]

    def box(self, number: int) -> Box:
        assert self.state.round is not None
        box = self.state.round.box(number)
        assert box is not None
        return box

    def play_box(self, number: int) -> None:
        # The player knows their own face-down card, so the strategy reads the true total.
        def total() -> int:
            return sum(VALUE_HALVES[card.card or ""] for card in self.box(number).cards)

        while not self.box(number).turn_over and total() < self.stand_halves:
            self.apply(c.RequestDraw(number))
            self.deal()
        if not self.box(number).turn_over:
            busted = total() > SIETE_Y_MEDIO_HALVES
            self.apply(c.DeclareBust(number) if busted else c.Stand(number))


class Tally:
    def __init__(self) -> None:
        self.outcomes = dict.fromkeys(OUTCOME_KEYS, 0)
        self.payouts = dict.fromkeys((REAL, SIETE_Y_MEDIO, PUNTAJE), 0)
        self.hands = 0
        self.returned_chips = 0
        self.round_square_sum = 0

    def add_round(self, results: list[BoxResult]) -> None:
        round_returned = 0
        for result in results:
            outcome = result.outcome
            if outcome == WIN:
                self.outcomes["win_" + result.hand_class] += 1
            else:
                self.outcomes[outcome] += 1
            if outcome in (WIN, BANK_BUST_WIN):
                self.payouts[result.hand_class] += 1
            round_returned += result.stake + result.net
        self.hands += len(results)
        self.returned_chips += round_returned
        self.round_square_sum += round_returned * round_returned


def simulate(
    rounds: int,
    seats: int,
    stand_on: Any,
    rng: Random,
    ties: str = "push",
    via: str = "rules",
) -> dict[str, Any]:
    """Play `rounds` rounds of `seats` boxes and report the return to player, exactly."""
    if rounds < 1 or not 1 <= seats <= 6:
        raise ValueError("play at least one round on 1 to 6 boxes")
    settings = simulation_settings(ties)
    stand_halves = _halves(stand_on)
    deck = FreshDeck(rng)
    tally = Tally()
    if via == "rules":
        for _ in range(rounds):
            tally.add_round(play_round_by_rules(deck, seats, stand_halves, settings))
    elif via == "engine":
        table = EngineTable(settings, deck, stand_halves)
        for _ in range(rounds):
            tally.add_round(table.play_round(seats))
    else:
        raise ValueError("via is 'rules' or 'engine'")
    return _report(tally, rounds, seats, stand_halves, ties, via)


def simulate_settings(rounds: int, rng: Random) -> dict[str, Any]:
    """Rounds by the rule functions under settings drawn at random, every payout checked.

    Each block of rounds draws a paytable, tie and breakage rule, chip and stake; each round
    draws its boxes (1 to 6) and the total the players stand on. Chips are conserved box by
    box (what comes back is the stake plus the net win, never less than nothing; the net win is
    the paytable's exact amount rounded to the chip the way the table rounds), and no card is
    dealt twice in a round.
    """
    checks: dict[str, int] = dict.fromkeys(SETTLEMENT_CHECKS, 0)
    violations: list[str] = []
    deck = FreshDeck(rng)
    played, hands, staked, returned = 0, 0, 0, 0
    while played < rounds:
        settings, stake = _drawn_settings(rng)
        for _ in range(min(500, rounds - played)):
            seats = rng.randint(1, 6)
            results = play_round_by_rules(deck, seats, rng.randint(8, 13), settings, stake)
            for result in results:
                _check_settlement(result, settings, checks, violations)
            dealt = deck.dealt()
            checks["no_card_twice"] += 1
            if len(set(dealt)) != len(dealt):
                violations.append(f"a card dealt twice: {dealt}")
            played += 1
            hands += len(results)
            staked += stake * len(results)
            returned += sum(result.returned for result in results)
    return {
        "rounds": played,
        "hands": hands,
        "staked": staked,
        "returned": returned,
        "invariants": {name: {"checked": count} for name, count in checks.items()},
        "violations": violations[:50],
        "ok": not violations,
    }


SETTLEMENT_CHECKS = ("returned_is_stake_plus_net", "net_is_the_paytable_rounded", "no_card_twice")
PAYTABLES: tuple[dict[str, str], ...] = (
    {},
    {"real": "3:1", "siete_y_medio": "2:1"},
    {"siete_y_medio": "6:5"},
)


def _drawn_settings(rng: Random) -> tuple[SieteSettings, int]:
    chip = rng.choice((1, 2, 5))
    stake = chip * rng.choice((1, 3, 5, 7, 25))
    settings = SieteSettings.from_mapping(
        {
            "min_stake": chip,
            "max_stake": stake,
            "chip": chip,
            "ties": rng.choice(("push", "bank")),
            "breakage": rng.choice(("down", "up")),
            "paytable": rng.choice(PAYTABLES),
        }
    )
    return settings, stake


def _check_settlement(
    result: BoxResult, settings: SieteSettings, checks: dict[str, int], violations: list[str]
) -> None:
    checks["returned_is_stake_plus_net"] += 1
    if result.returned != result.stake + result.net or result.returned < 0:
        violations.append(f"chips not conserved: {result}")
    if result.net > 0:
        checks["net_is_the_paytable_rounded"] += 1
        exact = result.stake * settings.ratio(result.hand_class)
        off = exact - result.net
        rounded = (
            0 <= off < settings.chip if settings.breakage == "down" else -settings.chip < off <= 0
        )
        if not rounded or result.net % settings.chip or off != result.breakage:
            violations.append(f"payout not the paytable's: {result}")


def _decimal(value: Fraction, places: int = 6) -> str:
    return str(
        (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal(10) ** -places)
    )


def _report(
    tally: Tally, rounds: int, seats: int, stand: int, ties: str, via: str
) -> dict[str, Any]:
    staked_chips = tally.hands * STAKE_CHIPS
    rtp = Fraction(tally.returned_chips, staked_chips)
    # Boxes of one round share the bank's hand, so the spread is measured per round.
    mean = Fraction(tally.returned_chips, rounds)
    variance = Fraction(tally.round_square_sum, rounds) - mean * mean
    per_round_stake = seats * STAKE_CHIPS
    error = (Decimal(variance.numerator) / Decimal(variance.denominator) / rounds).sqrt()
    return {
        "rounds": rounds,
        "seats": seats,
        "stand_on": _decimal(Fraction(stand, 2), 1),
        "ties": ties,
        "via": via,
        "hands": tally.hands,
        "stake_chips_per_unit": STAKE_CHIPS,
        "staked": tally.hands,
        "returned": _decimal(Fraction(tally.returned_chips, STAKE_CHIPS), 1),
        "rtp": _decimal(rtp),
        "rtp_exact": f"{rtp.numerator}/{rtp.denominator}",
        "rtp_standard_error": str((error / per_round_stake).quantize(Decimal("0.000001"))),
        "house_edge": _decimal(1 - rtp),
        # The sample variance of a round's return per unit staked (one box: of one stake).
        "round_return_variance": _decimal(variance / per_round_stake**2),
        "outcomes": tally.outcomes,
        "payouts": tally.payouts,
    }
