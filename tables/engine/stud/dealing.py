"""What card is due next: the deal order per street, burns and the short-stub rule."""

from __future__ import annotations

from tables.engine.errors import InvalidInputError, NotAllowedNowError
from tables.engine.frozen import changed
from tables.engine.poker.cards import parse_card
from tables.engine.stud.state import COMMUNITY, DEALING, DOWN, UP, DueCard, StudState

DECK_SIZE = 52


def third_street_queue(state: StudState) -> tuple[DueCard, ...]:
    """One card at a time around the table from seat 1: down, down, then up."""
    rounds = (DOWN, DOWN, UP)
    return tuple(DueCard(seat.seat, face) for face in rounds for seat in state.seats)


def open_dealing(state: StudState, street: int) -> StudState:
    """Start dealing `street` (4th to 7th): plan the cards due and whether a burn may come first."""
    needed = len(state.in_hand())
    stub = DECK_SIZE - state.drawn
    burn = 1 if state.settings.burns else 0
    face = DOWN if street == 7 else UP
    normal = tuple(DueCard(seat.seat, face) for seat in state.in_hand())
    base = changed(state, phase=DEALING, street=street, betting=None, premature_returned=False)
    if state.premature_returned:
        # TDA RP-5-D: the stub is shuffled with the premature card and dealt without another burn.
        burn = 0
    if stub >= needed + burn:
        return changed(base, deal_queue=normal, burn_open=burn == 1)
    if state.settings.short_stub == "reshuffle_burns":
        if stub + len(state.burns) >= needed + 2:
            # TDA RP-10-H: the burns are scrambled back into the stub, one is burned again.
            return changed(_burns_back(base), deal_queue=normal, burn_open=True)
    elif stub == needed:
        return changed(base, deal_queue=normal, burn_open=False)
    community = (DueCard(COMMUNITY, UP),)
    if stub == 0:
        # Only the burns (never folded or live cards) are scrambled into a new stub.
        return changed(_burns_back(base), deal_queue=community, burn_open=False)
    return changed(base, deal_queue=community, burn_open=state.settings.burns and stub >= 2)


def _burns_back(state: StudState) -> StudState:
    known_burns = {card for card in state.burns if card is not None}
    return changed(
        state,
        drawn=state.drawn - len(state.burns),
        known_cards=state.known_cards - known_burns,
        burns=(),
    )


def verify_card(state: StudState, card: str | None) -> None:
    """A card code must be one of the 52 and not already seen in this hand."""
    if card is None:
        return
    parse_card(card)
    if card in state.known_cards:
        # The first copy may be a hole card or a burn: the sentence names no card, and reads
        # the same whichever copy it is.
        raise InvalidInputError(
            "That card has already been dealt in this hand; check the card.",
            code="duplicate_card",
        )


def due_card(state: StudState, seat: int | None) -> DueCard:
    """The next card due, checked against the seat the dealer says it goes to."""
    if state.phase != DEALING or not state.deal_queue:
        raise NotAllowedNowError("No card is due now.", code="card_not_due")
    due = state.deal_queue[0]
    if seat is not None and seat != due.seat:
        target = "the community card" if due.seat == COMMUNITY else f"seat {due.seat}"
        raise NotAllowedNowError(
            f"The next card goes to {target}, not seat {seat}.",
            code="card_not_due",
            params={"due": "community" if due.seat == COMMUNITY else due.seat, "seat": seat},
        )
    return due


def verify_burn_due(state: StudState) -> None:
    if state.phase != DEALING or not state.burn_open:
        raise NotAllowedNowError("No burn card is due now.", code="card_not_due")


def stub_size(state: StudState) -> int:
    return DECK_SIZE - state.drawn
