"""The pit boss's decisions: voids, killed hands and a held duplicate card, each with approval."""

from __future__ import annotations

from tables.engine.errors import InvalidInputError, NotAllowedNowError
from tables.engine.frozen import changed
from tables.engine.game import Event
from tables.engine.stud.actions import verify_seat_in_hand
from tables.engine.stud.cards import record_card
from tables.engine.stud.commands import CorrectHeldCard, KillHand, RecordCard, VoidHand
from tables.engine.stud.dealing import verify_card
from tables.engine.stud.state import StudState


def verify_approval(requested_by: str | None, approved_by: str | None) -> dict[str, str]:
    """A correction or void names who asked and the approving pit boss, two different people."""
    if not requested_by or not requested_by.strip():
        raise InvalidInputError("Say who asks for this correction.", code="approval_required")
    if not approved_by or not approved_by.strip():
        raise InvalidInputError(
            "A pit boss must approve this correction.", code="approval_required"
        )
    if requested_by.strip() == approved_by.strip():
        raise NotAllowedNowError(
            "The approving pit boss must be someone other than who asked.",
            code="approver_must_differ",
        )
    return {"requested_by": requested_by.strip(), "approved_by": approved_by.strip()}


def void_hand(state: StudState, command: VoidHand) -> tuple[Event, ...]:
    approval = verify_approval(command.requested_by, command.approved_by)
    if command.cause == "misdeal" and state.substantial_action:
        raise NotAllowedNowError(
            "After substantial action a misdeal does not void the hand; the hand goes on.",
            code="substantial_action",
        )
    refunds = [{"seat": s.seat, "amount": s.start_stack - s.stack} for s in state.seats]
    data = {"reason": command.reason, "cause": command.cause, "refunds": refunds, **approval}
    return (Event("hand.voided", data),)


def kill_hand(state: StudState, command: KillHand) -> tuple[Event, ...]:
    approval = verify_approval(command.requested_by, command.approved_by)
    seat = verify_seat_in_hand(state, command.seat)
    return (Event("hand.killed", {"seat": seat.seat, "reason": command.reason, **approval}),)


def correct_held_card(state: StudState, command: CorrectHeldCard) -> tuple[Event, ...]:
    """The shoe misread: the true card replaces the held read and goes where it was due."""
    approval = verify_approval(command.requested_by, command.approved_by)
    if state.held_card is None:
        raise NotAllowedNowError("No card is held for correction.", code="nothing_held")
    corrected = Event(
        "card.corrected", {"misread": state.held_card, "card": command.card, **approval}
    )
    released = changed(state, held_card=None)
    verify_card(released, command.card)
    read_again = RecordCard(command.card, physical_id=state.held_physical_id, source="shoe")
    routed = record_card(released, read_again)
    return (corrected, *routed)


def verify_not_held(state: StudState) -> None:
    if state.held_card is not None:
        raise NotAllowedNowError(
            "The hand is held: the shoe read a card twice. Correct the card or void the hand.",
            code="hand_held",
        )
