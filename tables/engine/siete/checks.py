"""Input checks shared by the command handlers: box numbers, amounts, approvals, entered cards."""

from __future__ import annotations

from typing import NoReturn

from tables.engine.siete.builder import refuse, reject
from tables.engine.siete.cards import parse_card
from tables.engine.siete.settings import BOXES, SieteSettings
from tables.engine.siete.shoe import duplicate_reason
from tables.engine.siete.state import SieteState


def verify_box_number(box: object) -> int:
    if isinstance(box, bool) or not isinstance(box, int) or not 1 <= box <= BOXES:
        reject(
            "invalid_box",
            f"Box {box!r} does not exist: boxes are numbered 1 to {BOXES}.",
            box=repr(box),
            boxes=BOXES,
        )
    return box


def verify_stake(amount: object, settings: SieteSettings) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        reject(
            "invalid_amount",
            f"{amount!r} is not a stake: give a whole amount above zero.",
            amount=repr(amount),
        )
    if amount % settings.chip:
        reject(
            "stake_not_chip_multiple",
            f"A stake of {amount} is not a whole number of the smallest chip ({settings.chip}).",
            amount=amount,
            chip=settings.chip,
        )
    if amount < settings.min_stake:
        reject(
            "stake_below_minimum",
            f"The minimum stake at this table is {settings.min_stake}.",
            min_stake=settings.min_stake,
        )
    if amount > settings.max_stake:
        reject(
            "stake_above_maximum",
            f"The maximum stake at this table is {settings.max_stake}.",
            max_stake=settings.max_stake,
        )
    return amount


def verify_approval(requested_by: object, approved_by: object) -> None:
    """Corrections and voids need a pit boss's approval, from someone other than who asked."""
    if not isinstance(requested_by, str) or not requested_by.strip():
        reject("approval_required", "Say who asks for this correction.")
    if not isinstance(approved_by, str) or not approved_by.strip():
        reject("approval_required", "A pit boss must approve this correction.")
    if requested_by.strip() == approved_by.strip():
        refuse(
            "approver_must_differ", "The approving pit boss must be someone other than who asked."
        )


def verify_reason(reason: object) -> str:
    if not isinstance(reason, str) or not reason.strip():
        reject("reason_required", "Give the reason for the void.")
    return reason.strip()


DUPLICATE_SENTENCE = (
    "That card has already been dealt from this shoe; check the card and enter it again."
)


def refuse_duplicate() -> NoReturn:
    """One sentence and no card for every duplicate entry.

    The copy already drawn may be a face-down card or a burn, so the refusal must read the
    same whichever copy it is, and must not say which card it was.
    """
    refuse("duplicate_card", DUPLICATE_SENTENCE)


def entered_card(state: SieteState, text: object) -> str:
    """A card typed on the tablet now: it must be a real card and must not be a duplicate."""
    card = parse_card(text)
    if duplicate_reason(state.shoe, card, None, state.settings.decks) is not None:
        refuse_duplicate()
    return card


def hidden_card_code(state: SieteState, known: str | None, text: object) -> str:
    """The code of a face-down card being turned up: entered if unknown, as recorded if known.

    A card already recorded (read by the shoe, or entered as it was dealt) is turned up as
    recorded. Entering one anyway is refused whatever was typed: comparing the entry with the
    record would let a wrong guess learn something of a card still face down
    (`card_already_read`; a misread goes to the pit boss).
    """
    if known is None:
        if text is None:
            reject("card_required", "Enter the face-down card as it is turned up.")
        return entered_card(state, text)
    if text is not None:
        parse_card(text)
        refuse(
            "card_already_read",
            "This face-down card is already recorded: turn it up without entering it, or call "
            "the pit boss if it was misread.",
        )
    return known
