"""Questions the rules ask of a round: totals, whose turn it is, what phase the round is in.

Everything that decides what is legal looks only at what is visible on the table: a face-down
card counts ½ whatever the shoe read, so a known hidden card never leaks into legality.
"""

from __future__ import annotations

from collections.abc import Iterable

from tables.engine.frozen import memo
from tables.engine.siete.cards import SIETE_Y_MEDIO_HALVES, VALUE_HALVES
from tables.engine.siete.state import Box, HandCard, Round

BANK_STANDS_AT_HALVES = 10  # the bank draws below 5 and stands at 5 or more

BETTING = "betting"
DEALING = "dealing"
PLAYERS = "players"
BANK = "bank"
SETTLING = "settling"
SETTLED = "settled"
VOIDED = "voided"
NO_ROUND = "no_round"


def visible_total(cards: Iterable[HandCard]) -> int:
    """Face-up cards at their value and ½ (the least a card can count) for each face-down one."""
    return sum(VALUE_HALVES[c.card] if c.face_up and c.card else 1 for c in cards)


def known_total(cards: Iterable[HandCard]) -> int | None:
    """The true total, or None while a card is still unknown."""
    total = 0
    for hand_card in cards:
        if hand_card.card is None:
            return None
        total += VALUE_HALVES[hand_card.card]
    return total


def codes(cards: Iterable[HandCard]) -> tuple[str, ...]:
    return tuple(c.card for c in cards if c.card is not None)


def all_known(cards: Iterable[HandCard]) -> bool:
    return all(c.card is not None for c in cards)


def face_down_count(cards: Iterable[HandCard]) -> int:
    return sum(1 for c in cards if not c.face_up)


def bank_must_draw(total_halves: int) -> bool:
    """The bank's forced rule: draw while below 5."""
    return total_halves < BANK_STANDS_AT_HALVES


def player_stands_on_seven_and_half(cards: Iterable[HandCard]) -> bool:
    """Every card face up and exactly 7½: any draw would bust, so the box stands at once."""
    cards = tuple(cards)
    return all(c.face_up for c in cards) and visible_total(cards) == SIETE_Y_MEDIO_HALVES


def visibly_bust(cards: Iterable[HandCard]) -> bool:
    return visible_total(cards) > SIETE_Y_MEDIO_HALVES


def active_boxes(round_: Round) -> tuple[Box, ...]:
    cache = memo(round_)
    found: tuple[Box, ...] | None = cache.get("active_boxes")
    if found is None:
        found = cache["active_boxes"] = tuple(b for b in round_.boxes if b.removed is None)
    return found


def current_box(round_: Round) -> Box | None:
    """The box whose turn it is: the first box in order whose turn is not over."""
    cache = memo(round_)
    if "current_box" not in cache:
        cache["current_box"] = _current_box(round_)
    found: Box | None = cache["current_box"]
    return found


def _current_box(round_: Round) -> Box | None:
    if not round_.betting_closed or dealing_incomplete(round_):
        return None
    for box in active_boxes(round_):
        if not box.turn_over:
            return box
    return None


def dealing_incomplete(round_: Round) -> bool:
    return not round_.bank or any(not box.cards for box in active_boxes(round_))


def bank_turn_needed(round_: Round) -> bool:
    """The bank plays if a box stands without a visible bust (an undeclared bust is not visible)."""
    return any(box.bust in (None, "undeclared") for box in active_boxes(round_))


def bank_revealed(round_: Round) -> bool:
    return all(c.face_up and c.card is not None for c in round_.bank)


def phase(round_: Round | None) -> str:
    if round_ is None:
        return NO_ROUND
    cache = memo(round_)
    found: str | None = cache.get("phase")
    if found is None:
        found = cache["phase"] = _phase(round_)
    return found


def _phase(round_: Round) -> str:
    if round_.voided:
        return VOIDED
    if round_.settled:
        return SETTLED
    if not round_.betting_closed:
        return BETTING
    if dealing_incomplete(round_):
        return DEALING
    if current_box(round_) is not None:
        return PLAYERS
    if bank_turn_needed(round_) and not round_.bank_finished:
        return BANK
    return SETTLING


def round_in_progress(round_: Round | None) -> bool:
    return round_ is not None and not (round_.settled or round_.voided)


def next_deal_box(round_: Round) -> Box | None:
    """In the initial deal: the first box with a wager still without its card."""
    for box in active_boxes(round_):
        if not box.cards:
            return box
    return None
