"""The exact house edge of Siete y Medio under a table's settings, as a Fraction of the stake.

What the figure assumes (docs/reports.md, "House edge"):

* one box heads-up against the bank, dealt from a freshly shuffled shoe of `decks` decks (the
  `every_round` shuffle; burned cards are unseen, so they change no probability);
* the bank's card stays face down until the bank's turn, so the player decides on their own cards
  alone; dealing the bank's card before or after the player's draws changes no probability;
* the player follows the **optimal strategy**: at every holding they draw or stand, whichever
  returns more on average, given exactly which cards they hold (the shoe is finite, so a total of
  2 made of four figures is not the same hand as a 1 and a figure). A fixed reference strategy,
  draw below a total and stand from it, is also offered for the simulation to be checked against;
* wins are paid at the exact paytable ratio: breakage is rounding on the chip, reported apart.

Cards are counted by value in half-points (the 40-card deck has eight values); suits matter only
for a two-card 7½ (Real or Siete y Medio), which both the player and the bank can only make from a
7 and a figure, and which the enumeration tracks exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from functools import cache
from math import factorial, perm
from typing import NamedTuple

from tables.engine.siete.cards import (
    DECK,
    IS_FIGURE,
    IS_SEVEN,
    SIETE_Y_MEDIO_HALVES,
    SUIT_OF,
    SUITS,
    VALUE_HALVES,
)
from tables.engine.siete.hands import classify, hand_total
from tables.engine.siete.rules import bank_must_draw
from tables.engine.siete.settings import SieteSettings
from tables.engine.siete.settlement import (
    BANK_BUST_WIN,
    LOSS,
    PLAYER_BUST,
    PUSH,
    WIN,
    box_outcome,
)

OPTIMAL = None  # the strategy argument that asks for the player's best play

# The eight card values in half-points, ascending, and how many cards of each one deck holds.
VALUES: tuple[int, ...] = tuple(sorted(set(VALUE_HALVES.values())))
PER_DECK: tuple[int, ...] = tuple(
    sum(1 for card in DECK if VALUE_HALVES[card] == value) for value in VALUES
)
FIGURE = VALUES.index(next(VALUE_HALVES[c] for c in DECK if IS_FIGURE[c]))
SEVEN = VALUES.index(next(VALUE_HALVES[c] for c in DECK if IS_SEVEN[c]))
FIGURES_PER_SUIT = PER_DECK[FIGURE] // len(SUITS)

Counts = tuple[int, ...]  # cards per value, in the order of VALUES
Final = tuple[str, int]  # a finished hand: its class and total in half-points


class Holding(NamedTuple):
    """The cards a hand holds, by value; `same_suit` marks a 7 held with a figure of its suit."""

    counts: Counts
    same_suit: bool = False

    @property
    def total(self) -> int:
        return sum(count * value for count, value in zip(self.counts, VALUES, strict=True))

    @property
    def size(self) -> int:
        return sum(self.counts)

    def final(self) -> Final:
        cards = _representative_cards(self.counts, self.same_suit)
        return classify(cards), hand_total(cards)


class EdgeRules(NamedTuple):
    """The table settings that change the edge; the others (limits, chip, corrections) do not."""

    decks: int
    paytable: tuple[tuple[str, Fraction], ...]
    ties: str


def edge_rules(settings: SieteSettings) -> EdgeRules:
    return EdgeRules(settings.decks, tuple(sorted(settings.paytable.items())), settings.ties)


def house_edge(settings: SieteSettings) -> Fraction:
    """The house edge against a player who plays the optimal strategy."""
    return edge_for(edge_rules(settings), OPTIMAL)


def house_edge_standing_on(settings: SieteSettings, stand_halves: int) -> Fraction:
    """The house edge against a player who draws below `stand_halves` and stands from it."""
    if not 1 <= stand_halves <= SIETE_Y_MEDIO_HALVES:
        raise ValueError("stand on a total from ½ to 7½ (1 to 15 half-points)")
    return edge_for(edge_rules(settings), stand_halves)


def holding_of(cards: Sequence[str]) -> Holding:
    """The holding of a hand given as card codes."""
    counts = [0] * len(VALUES)
    for card in cards:
        counts[VALUES.index(VALUE_HALVES[card])] += 1
    same_suit = _seven_and_figure(tuple(counts)) and SUIT_OF[cards[0]] == SUIT_OF[cards[1]]
    return Holding(tuple(counts), same_suit)


def standing_return(settings: SieteSettings, cards: Sequence[str]) -> Fraction:
    """What a stake of 1 returns on average (stake included) when the box stands on `cards`."""
    holding = holding_of(cards)
    if holding.total > SIETE_Y_MEDIO_HALVES:
        return Fraction(0)
    return _analysis(edge_rules(settings)).stand_return(holding)


def optimal_draws(settings: SieteSettings) -> frozenset[Holding]:
    """Every holding (of one or more cards, not bust) at which the optimal player draws."""
    return _analysis(edge_rules(settings)).draws_at()


def unit_variance(settings: SieteSettings) -> Fraction:
    """The variance of the house's result on one unit staked, against the optimal player."""
    return variance_for(edge_rules(settings), OPTIMAL)


def unit_variance_standing_on(settings: SieteSettings, stand_halves: int) -> Fraction:
    """The variance of one unit staked by a player who draws below `stand_halves`."""
    if not 1 <= stand_halves <= SIETE_Y_MEDIO_HALVES:
        raise ValueError("stand on a total from ½ to 7½ (1 to 15 half-points)")
    return variance_for(edge_rules(settings), stand_halves)


@cache
def variance_for(rules: EdgeRules, stand_halves: int | None) -> Fraction:
    """E[R²] - E[R]² of the return R of a stake of 1, by the same enumeration as the edge: the
    player's draws are the ones that maximise E[R], and the spread follows those draws."""
    analysis = _analysis(rules)
    empty = Holding((0,) * len(VALUES))
    mean = analysis.value(empty, stand_halves)
    return analysis.square(empty, stand_halves) - mean * mean


@cache
def edge_for(rules: EdgeRules, stand_halves: int | None) -> Fraction:
    """1 - the expected return (stake included) of a stake of 1; cached per rules and strategy."""
    return 1 - _analysis(rules).value(Holding((0,) * len(VALUES)), stand_halves)


@cache
def _analysis(rules: EdgeRules) -> _Analysis:
    return _Analysis(rules)


class _Analysis:
    """The exact enumeration for one set of rules; memoises each holding's returns."""

    def __init__(self, rules: EdgeRules) -> None:
        self.rules = rules
        self.shoe: Counts = tuple(rules.decks * count for count in PER_DECK)
        self.paytable: Mapping[str, Fraction] = dict(rules.paytable)
        self._stand: dict[Holding, tuple[Fraction, Fraction]] = {}
        self._value: dict[tuple[Holding, int | None], Fraction] = {}
        self._square: dict[tuple[Holding, int | None], Fraction] = {}

    def value(self, holding: Holding, stand_halves: int | None) -> Fraction:
        """The expected return of a holding played on by the strategy (None = optimal)."""
        if holding.total > SIETE_Y_MEDIO_HALVES:
            return Fraction(0)
        key = (holding, stand_halves)
        if key not in self._value:
            self._value[key] = self._decide(holding, stand_halves)
        return self._value[key]

    def _decide(self, holding: Holding, stand_halves: int | None) -> Fraction:
        if holding.size == 0:
            return self.draw_return(holding, stand_halves)
        if stand_halves is not None:
            if holding.total >= stand_halves:
                return self.stand_return(holding)
            return self.draw_return(holding, stand_halves)
        return max(self.stand_return(holding), self.draw_return(holding, OPTIMAL))

    def square(self, holding: Holding, stand_halves: int | None) -> Fraction:
        """E[R²] of a holding played on by the strategy; the optimal player draws only where
        drawing returns strictly more on average (as `draws_at` reports it)."""
        if holding.total > SIETE_Y_MEDIO_HALVES:
            return Fraction(0)
        key = (holding, stand_halves)
        if key not in self._square:
            if self._draws(holding, stand_halves):
                self._square[key] = self._draw_mean(
                    holding, lambda after: self.square(after, stand_halves)
                )
            else:
                self._square[key] = self._stand_moments(holding)[1]
        return self._square[key]

    def _draws(self, holding: Holding, stand_halves: int | None) -> bool:
        if holding.size == 0:
            return True
        if stand_halves is not None:
            return holding.total < stand_halves
        return self.value(holding, OPTIMAL) != self.stand_return(holding)

    def draws_at(self) -> frozenset[Holding]:
        self.value(Holding((0,) * len(VALUES)), OPTIMAL)
        return frozenset(
            holding
            for (holding, strategy), value in self._value.items()
            if strategy is OPTIMAL and holding.size and value != self.stand_return(holding)
        )

    def draw_return(self, holding: Holding, stand_halves: int | None) -> Fraction:
        """Draw one card, then play on; a 7 meeting a lone figure is a Real a quarter of the
        time whatever the number of decks (the suits of either card are equally likely)."""
        return self._draw_mean(holding, lambda after: self.value(after, stand_halves))

    def _draw_mean(self, holding: Holding, of: Callable[[Holding], Fraction]) -> Fraction:
        """The average of `of` over the holdings one more card makes."""
        left = self._left(holding.counts)
        total_left = sum(left)
        value = Fraction(0)
        for index, count in enumerate(left):
            if not count:
                continue
            counts = _add(holding.counts, index)
            pair = _seven_and_figure(counts)
            if pair:
                # Cards of the one held card's suit that are left, of this value.
                same = self.rules.decks if index == SEVEN else FIGURES_PER_SUIT * self.rules.decks
                value += same * of(Holding(counts, True))
                value += (count - same) * of(Holding(counts, False))
            else:
                value += count * of(Holding(counts))
        return value / total_left

    def stand_return(self, holding: Holding) -> Fraction:
        """The expected return of standing: the bank plays from the cards the player does not
        hold, and each of its finished hands is settled by the one settlement rule."""
        return self._stand_moments(holding)[0]

    def _stand_moments(self, holding: Holding) -> tuple[Fraction, Fraction]:
        """E[R] and E[R²] of standing on `holding`."""
        if holding not in self._stand:
            weights, denominator = self._bank_weights(holding)
            player = holding.final()
            returns = [(weight, self._returned(player, bank)) for bank, weight in weights.items()]
            first = sum((weight * value for weight, value in returns), Fraction(0))
            second = sum((weight * value * value for weight, value in returns), Fraction(0))
            self._stand[holding] = (first / denominator, second / denominator)
        return self._stand[holding]

    def _returned(self, player: Final, bank: Final) -> Fraction:
        outcome = box_outcome(*player, *bank, self.rules.ties)
        if outcome in (WIN, BANK_BUST_WIN):
            return 1 + self.paytable[player[0]]
        if outcome == PUSH:
            return Fraction(1)
        assert outcome in (LOSS, PLAYER_BUST)
        return Fraction(0)

    def _bank_weights(self, holding: Holding) -> tuple[dict[Final, int], int]:
        """How often the bank finishes on each hand, as integers over one common denominator.

        The bank's first k cards form the multiset B with probability prod C(left, b) / C(n, k);
        every order of a drawing hand is a drawing order (the bank draws below a fixed total), so
        B followed by one standing card x covers every way the bank can finish, once.
        """
        left = self._left(holding.counts)
        total_left = sum(left)
        depth = _LONGEST_BANK_HAND
        weights: dict[Final, int] = {}
        for partial in _BANK_PARTIALS:
            ways = partial.orders
            for count, taken in zip(left, partial.counts, strict=True):
                ways *= perm(count, taken)
            if not ways:
                continue
            scale = perm(total_left - partial.size - 1, depth - partial.size - 1)
            for index, finals in partial.endings:
                weight = ways * (left[index] - partial.counts[index]) * scale
                if not weight:
                    continue
                if len(finals) == 1:
                    weights[finals[0]] = weights.get(finals[0], 0) + weight
                    continue
                # A figure then a 7: a Real when the 7 matches the figure's suit.
                same = partial.orders * self._suit_pairs(holding) * scale
                same_suit, other_suit = finals
                weights[same_suit] = weights.get(same_suit, 0) + same
                weights[other_suit] = weights.get(other_suit, 0) + weight - same
        return weights, perm(total_left, depth)

    def _suit_pairs(self, holding: Holding) -> int:
        """The (figure, 7) pairs of one suit left: sum over suits of figures x sevens left.

        Only a 7 the player holds unbalances the suits (at most one, with at most one figure
        beside it); figures held without a 7 leave every suit's 7s whole, so their suits cancel.
        """
        decks = self.rules.decks
        figures = self._left(holding.counts)[FIGURE]
        if not holding.counts[SEVEN]:
            return decks * figures
        figures_of_its_suit = FIGURES_PER_SUIT * decks - (1 if holding.same_suit else 0)
        return decks * figures - figures_of_its_suit

    def _left(self, counts: Counts) -> Counts:
        return tuple(shoe - held for shoe, held in zip(self.shoe, counts, strict=True))


def _add(counts: Counts, index: int) -> Counts:
    return (*counts[:index], counts[index] + 1, *counts[index + 1 :])


def _seven_and_figure(counts: Counts) -> bool:
    return sum(counts) == 2 and counts[SEVEN] == 1 and counts[FIGURE] == 1


def _representative_cards(counts: Counts, same_suit: bool) -> tuple[str, ...]:
    """Card codes with these values, for the one classifier; only a 7 and a figure need suits."""
    by_value = {VALUE_HALVES[card]: card for card in DECK if card.endswith(SUITS[0])}
    figure_suit = SUITS[0] if same_suit else SUITS[1]
    cards: list[str] = []
    for index, count in enumerate(counts):
        card = by_value[VALUES[index]]
        if index == FIGURE:
            card = card[:-1] + figure_suit
        cards.extend([card] * count)
    return tuple(cards)


class _BankPartial(NamedTuple):
    """A multiset of cards the bank can hold and still have to draw, and how it can finish."""

    counts: Counts
    size: int
    orders: int  # distinct orders of the multiset
    endings: tuple[tuple[int, tuple[Final, ...]], ...]  # (next card's value index, finals)


def _bank_partials() -> tuple[_BankPartial, ...]:
    found: list[_BankPartial] = []

    def grow(counts: Counts, lowest: int) -> None:
        total = sum(c * v for c, v in zip(counts, VALUES, strict=True))
        size = sum(counts)
        orders = factorial(size)
        for count in counts:
            orders //= factorial(count)
        endings = []
        for index, value in enumerate(VALUES):
            if bank_must_draw(total + value):
                if index >= lowest:
                    grow(_add(counts, index), index)
                continue
            after = _add(counts, index)
            finals: tuple[Final, ...]
            if _seven_and_figure(after):
                finals = (Holding(after, True).final(), Holding(after, False).final())
            else:
                finals = (Holding(after).final(),)
            endings.append((index, finals))
        found.append(_BankPartial(counts, size, orders, tuple(endings)))

    grow((0,) * len(VALUES), 0)
    return tuple(found)


_BANK_PARTIALS = _bank_partials()
_LONGEST_BANK_HAND = max(partial.size for partial in _BANK_PARTIALS) + 1
