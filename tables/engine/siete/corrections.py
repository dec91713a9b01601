"""The pit boss's corrections and the table's shoe handling: voids, a held card, payouts,
reshuffles, the cut card and new settings. Nothing recorded is ever edited; each is a new event.
"""

from __future__ import annotations

from tables.engine.siete.builder import EventBuilder, refuse, reject
from tables.engine.siete.checks import (
    entered_card,
    verify_approval,
    verify_box_number,
    verify_reason,
)
from tables.engine.siete.commands import (
    CorrectHeldCard,
    CorrectPayout,
    CutCard,
    MoveCard,
    RecordPayout,
    Reshuffle,
    UpdateSettings,
    VoidBox,
    VoidRound,
)
from tables.engine.siete.dealing import route_card
from tables.engine.siete.rules import BETTING, phase, round_in_progress
from tables.engine.siete.settings import SieteSettings
from tables.engine.siete.state import Box


def void_round(b: EventBuilder, command: VoidRound) -> None:
    """Every stake is returned, busted boxes included; possible only before the round settles."""
    reason = verify_reason(command.reason)
    verify_approval(command.requested_by, command.approved_by)
    if not round_in_progress(b.state.round):
        refuse(
            "round_not_open",
            "Only a round in progress can be voided; settled amounts change by correction.",
        )
    returned = sum(box.stake for box in b.round.boxes if box.removed is None)
    b.emit(
        "round.voided",
        reason=reason,
        requested_by=command.requested_by,
        approved_by=command.approved_by,
        returned=returned,
    )


def void_box(b: EventBuilder, command: VoidBox) -> None:
    number = verify_box_number(command.box)
    reason = verify_reason(command.reason)
    verify_approval(command.requested_by, command.approved_by)
    if not round_in_progress(b.state.round):
        refuse("round_not_open", "Only a box of a round in progress can be voided.")
    box = b.round.box(number)
    if box is None or box.removed is not None:
        refuse("no_wager", f"Box {number} has no wager in play.", box=number)
    b.emit(
        "box.voided",
        box=number,
        reason=reason,
        requested_by=command.requested_by,
        approved_by=command.approved_by,
        returned=box.stake,
    )


def correct_held_card(b: EventBuilder, command: CorrectHeldCard) -> None:
    """The shoe misread a card as a duplicate: the dealer enters the true card, with approval."""
    verify_approval(command.requested_by, command.approved_by)
    round_ = b.state.round
    if round_ is None or round_.held != "duplicate_card" or round_.held_card is None:
        refuse("nothing_held", "No card is held for correction.")
    held = round_.held_card
    card = entered_card(b.state, command.card)
    b.emit(
        "card.corrected",
        misread=held.card,
        card=card,
        requested_by=command.requested_by,
        approved_by=command.approved_by,
    )
    route_card(b, type(held)(card, held.face_up, None, held.source), None, None)


def move_card(b: EventBuilder, command: MoveCard) -> None:
    """Before the first player decision, misplaced deal cards go where they were due."""
    source, target = verify_box_number(command.from_box), verify_box_number(command.to_box)
    verify_approval(command.requested_by, command.approved_by)
    if not round_in_progress(b.state.round) or phase(b.round) == BETTING:
        refuse("no_round_open", "Cards are moved only during the initial deal.")
    if b.round.first_decision:
        refuse("decisions_started", "The first player decision is made: the deal stands as dealt.")
    moving, receiving = b.round.box(source), b.round.box(target)
    if moving is None or moving.removed is not None or not moving.cards:
        refuse("no_card_to_move", f"Box {source} holds no card to move.", box=source)
    if receiving is None or receiving.removed is not None or source == target:
        refuse("no_wager", f"Box {target} has no wager to receive the card.", box=target)
    b.emit(
        "card.moved",
        from_box=source,
        to_box=target,
        requested_by=command.requested_by,
        approved_by=command.approved_by,
    )


def record_payout(b: EventBuilder, command: RecordPayout) -> None:
    """What the dealer actually paid or collected; a difference raises a payout-mismatch alert."""
    number = verify_box_number(command.box)
    if isinstance(command.amount, bool) or not isinstance(command.amount, int):
        reject("invalid_amount", "A payout is a whole amount: + paid, - collected, 0 for a push.")
    box = b.round.box(number)
    if box is None:
        refuse("no_wager", f"Box {number} had no wager this round.", box=number)
    returned_whole = b.round.voided or box.removed is not None
    if box.result is None and not returned_whole:
        refuse("round_not_settled", f"Box {number} is not settled yet.", box=number)
    if box.recorded_payout is not None:
        refuse(
            "payout_already_recorded",
            f"The payout of box {number} is already recorded.",
            box=number,
        )
    _emit_payout(b, "payout.recorded", box, command.amount)


def _emit_payout(
    b: EventBuilder, event_type: str, box: Box, amount: int, **extra: str | int | None
) -> None:
    """Record a payout figure against what the rules give; a difference raises an alert."""
    returned_whole = b.round.voided or box.removed is not None
    expected = 0 if returned_whole or box.result is None else box.result.net
    b.emit(
        event_type,
        box=box.number,
        amount=amount,
        expected=expected,
        difference=amount - expected,
        **extra,
    )
    if amount != expected:
        b.alert(
            "payout_mismatch",
            f"Box {box.number} was settled for {amount}, but the rules give {expected}.",
            box=box.number,
            expected=expected,
            recorded=amount,
        )


def correct_payout(b: EventBuilder, command: CorrectPayout) -> None:
    """Replace a recorded payout figure; the mismatch check runs again on the new figure."""
    number = verify_box_number(command.box)
    reason = verify_reason(command.reason)
    verify_approval(command.requested_by, command.approved_by)
    if isinstance(command.amount, bool) or not isinstance(command.amount, int):
        reject("invalid_amount", "A payout is a whole amount: + paid, - collected, 0 for a push.")
    box = b.round.box(number)
    if box is None or box.recorded_payout is None:
        refuse(
            "payout_not_recorded", f"No payout is recorded for box {number} to correct.", box=number
        )
    _emit_payout(
        b,
        "payout.corrected",
        box,
        command.amount,
        previous=box.recorded_payout,
        reason=reason,
        requested_by=command.requested_by,
        approved_by=command.approved_by,
    )


def reshuffle(b: EventBuilder, command: Reshuffle) -> None:
    """The discards go back in; cards of standing boxes and of the bank stay on the table."""
    during = round_in_progress(b.state.round) and phase(b.state.round) != BETTING
    b.emit("shoe.shuffled", during_round=during, burns_due=b.state.settings.burn_after_shuffle)


def cut_card(b: EventBuilder, command: CutCard) -> None:
    if b.state.shoe.cut_card_out:
        refuse("cut_card_already_out", "The cut card is already out.")
    b.emit("cut_card.drawn")


def update_settings(b: EventBuilder, command: UpdateSettings) -> None:
    settings = SieteSettings.from_mapping(command.settings)
    round_ = b.state.round
    if round_in_progress(round_) and phase(round_) != BETTING:
        refuse("round_in_progress", "Table settings change only between rounds or while betting.")
    b.emit("settings.changed", settings=settings.to_mapping())
