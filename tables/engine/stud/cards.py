"""Recording cards: dealt, community, burned, or dead when the shoe reports one out of turn."""

from __future__ import annotations

from typing import Any

from tables.engine.errors import InvalidInputError, NotAllowedNowError
from tables.engine.game import Event
from tables.engine.stud.commands import Burn, RecordCard
from tables.engine.stud.dealing import due_card, stub_size, verify_burn_due, verify_card
from tables.engine.stud.state import BETTING, COMMUNITY, DEALING, DOWN, UP, StudState


def record_card(state: StudState, command: RecordCard) -> tuple[Event, ...]:
    if command.source == "shoe" and command.card in state.known_cards:
        # RULES 1.5, 2.4: a duplicate read by the shoe holds the hand for the pit boss.
        data = {**_origin(command), "card": command.card, "street": state.street}
        return (Event("card.held", data),)
    verify_card(state, command.card)
    if state.phase == DEALING and _seat_out_of_hand(state, command.seat):
        # TDA RP-10-C: a card dealt to a seat not in the hand is dead, and dealing continues.
        data = {**_origin(command), "card": command.card, "reason": "seat_not_in_hand"}
        return (Event("card.dead", {**data, "seat": command.seat}),)
    try:
        due = due_card(state, command.seat)
    except NotAllowedNowError:
        if command.source != "shoe":
            raise
        return (_unexpected_shoe_card(state, command),)
    if due.face == UP and command.card is None:
        raise InvalidInputError(
            "An up card must be entered: everyone at the table can see it.",
            code="unknown_up_card",
        )
    data = {**_origin(command), "card": command.card, "street": state.street}
    if due.seat == COMMUNITY:
        return (Event("card.community", data),)
    if command.exposed and due.face == DOWN:
        return (_exposed_down_card(state, command, due.seat, data),)
    return (Event("card.dealt", {**data, "seat": due.seat, "face": due.face}),)


def _exposed_down_card(
    state: StudState, command: RecordCard, seat: int, data: dict[str, Any]
) -> Event:
    """A card due face down was dealt face up.

    On 3rd street it becomes the player's up card and their third card comes down (TDA
    RP-10-A). On 7th street, under `exposed_seventh: replace`, it is dead while betting remains
    and a card is left for a replacement (TDA RP-10-B); otherwise it plays face up.
    """
    if command.card is None:
        raise InvalidInputError("An exposed card must be entered.", code="unknown_up_card")
    exposed = {**data, "seat": seat, "face": UP, "exposed": True}
    if state.street != 7 or state.settings.exposed_seventh == "plays_up":
        return Event("card.dealt", exposed)
    betting_remains = len(state.can_bet()) >= 2
    replacement_left = stub_size(state) - 1 >= len(state.deal_queue)
    if betting_remains and replacement_left:
        return Event("card.dead", {**data, "reason": "exposed_seventh", "seat": seat})
    return Event("card.dealt", exposed)


def _seat_out_of_hand(state: StudState, seat: int | None) -> bool:
    if seat is None:
        return False
    if seat in state.sitting_out:
        return True
    return state.has_seat(seat) and not state.seat(seat).in_hand


def _unexpected_shoe_card(state: StudState, command: RecordCard) -> Event:
    """A card that left the shoe is a fact: recorded, never refused (RULES 3).

    Read while the street's betting is still open it is premature: it goes back to the stub and
    may be dealt again (TDA RP-5-D). Otherwise it is a dead card.
    """
    data = {**_origin(command), "card": command.card, "street": state.street}
    if state.phase == BETTING:
        return Event("card.premature", data)
    return Event("card.dead", {**data, "reason": "not_due"})


def burn(state: StudState, command: Burn) -> tuple[Event, ...]:
    verify_card(state, command.card)
    verify_burn_due(state)
    data = {**_origin(command), "card": command.card, "street": state.street}
    return (Event("card.burned", data),)


def _origin(command: Any) -> dict[str, Any]:
    return {"source": command.source, "physical_id": command.physical_id}
