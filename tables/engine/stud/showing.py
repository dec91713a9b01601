"""Who brings in on 3rd street and who acts first from 4th street, from the up cards only."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tables.engine.poker.cards import RANK_VALUES, SUIT_INDEXES
from tables.engine.stud.state import SeatState, StudState

# Matched-rank patterns, strongest last: straights and flushes never count in a showing hand.
_HIGH, _PAIR, _TWO_PAIR, _TRIPS, _FULL_HOUSE, _QUADS = range(6)


def _rank(card: str) -> int:
    return RANK_VALUES[card[0]]


def _suit(card: str) -> int:
    return SUIT_INDEXES[card[1]]


def _by_significance(cards: Sequence[str]) -> list[str]:
    counts = Counter(_rank(card) for card in cards)
    return sorted(cards, key=lambda c: (counts[_rank(c)], _rank(c), _suit(c)), reverse=True)


def showing_strength(cards: Sequence[str]) -> tuple[int, ...]:
    """The rank of an up-card hand by matched ranks, then ranks rank by rank."""
    counts = sorted(Counter(_rank(card) for card in cards).values(), reverse=True) or [0]
    if counts[0] >= 4:
        category = _QUADS
    elif counts[0] == 3:
        category = _FULL_HOUSE if len(counts) > 1 and counts[1] >= 2 else _TRIPS
    elif counts[0] == 2:
        category = _TWO_PAIR if len(counts) > 1 and counts[1] == 2 else _PAIR
    else:
        category = _HIGH
    return (category, *(_rank(card) for card in _by_significance(cards)))


def suit_tiebreak(cards: Sequence[str]) -> tuple[int, ...]:
    """Between equal showing hands: the highest card by suit (TDA RP-10-D).

    R14: the highest card is the highest-ranking up card, whatever group it belongs to, so
    `Qc Qh Ks` beats `Qs Qd Kc` on the king of spades; equal ranks go on to the next card.
    """
    ordered = sorted(cards, key=lambda card: (_rank(card), _suit(card)), reverse=True)
    return tuple(_suit(card) for card in ordered)


def showing_cards(state: StudState, seat: SeatState) -> tuple[str, ...]:
    """A seat's up cards, plus the community card where it counts as everyone's up card."""
    if state.settings.community_first_actor == "with_community":
        return seat.up + state.community
    return seat.up


def bring_in_seat(state: StudState) -> int:
    """The lowest 3rd-street up card by rank (ace high); ties by position or by suit."""
    by_suit = state.settings.bring_in_tie == "suit"

    def weight(seat: SeatState) -> tuple[int, int]:
        card = seat.up[0]
        return (_rank(card), _suit(card) if by_suit else 0)

    # min() keeps the first of equals, and seats are in order from the dealer's left.
    return min(state.in_hand(), key=weight).seat


def highest_showing_seat(state: StudState) -> int:
    """The in-hand seat with the highest showing hand; ties by position or by suit."""
    by_suit = state.settings.high_hand_tie == "suit"
    best: SeatState | None = None
    best_key: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    for seat in state.in_hand():
        cards = showing_cards(state, seat)
        key = (showing_strength(cards), suit_tiebreak(cards) if by_suit else ())
        if best_key is None or key > best_key:
            best, best_key = seat, key
    assert best is not None
    return best.seat


def first_with_chips_from(state: StudState, number: int) -> int | None:
    """The first seat clockwise from `number` (included) that can still bet."""
    return next((s.seat for s in state.clockwise_from(number) if s.can_bet), None)


def opener_for_street(state: StudState, street: int) -> int:
    """Who opens a street from 4th on (before skipping all-in players)."""
    community_on_seventh = street == 7 and len(state.community) > 0
    if community_on_seventh and state.settings.community_first_actor == "sixth_street":
        sixth = state.record_for(6)
        if sixth is not None and sixth.first_actor is not None:
            return next(s.seat for s in state.clockwise_from(sixth.first_actor) if s.in_hand)
    return highest_showing_seat(state)
