"""Where a card that left the shoe goes: a burn, the initial deal, a player's draw, the bank.

What happened on the table is recorded, never refused: a card the shoe reports out of order
becomes a misdrawn (or dead) card with an alert. A tablet entry, by contrast, is a claim the
dealer can correct, so a tablet card that cannot be dealt now is refused.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tables.engine.siete.builder import EventBuilder, refuse, reject
from tables.engine.siete.cards import format_points, parse_card
from tables.engine.siete.checks import refuse_duplicate
from tables.engine.siete.commands import RecordCard
from tables.engine.siete.rules import (
    BANK,
    BETTING,
    DEALING,
    PLAYERS,
    bank_must_draw,
    bank_revealed,
    current_box,
    face_down_count,
    known_total,
    next_deal_box,
    phase,
    round_in_progress,
)
from tables.engine.siete.shoe import duplicate_reason
from tables.engine.siete.state import SOURCES, TABLET, HandCard

TARGETS = (None, "box", "bank", "burn")


def record_card(b: EventBuilder, command: RecordCard) -> None:
    hand_card = _read_card(command)
    round_ = b.state.round
    if round_ is not None and round_in_progress(round_) and round_.held:
        refuse("round_held", "The round is held for the pit boss; no card can be recorded now.")
    duplicate = duplicate_reason(
        b.state.shoe, hand_card.card, hand_card.physical_id, b.state.settings.decks
    )
    if duplicate is not None:
        _duplicate(b, hand_card, duplicate)
        return
    if round_ is None or not round_in_progress(round_):
        _after_round(b, hand_card, command)
        return
    burning = b.state.shoe.burns_due > 0 and command.target in (None, "burn")
    if phase(round_) == BETTING and not burning:
        _close_betting(b, hand_card)
    route_card(b, hand_card, command.target, command.box)


def route_card(b: EventBuilder, hand_card: HandCard, target: str | None, box: int | None) -> None:
    """Send a card to whoever the rules say is due, checking what the tablet said it was for."""
    if b.state.shoe.burns_due and target in (None, "burn"):
        b.emit("card.burned", **_card_data(hand_card, face_up=False))
    elif target == "burn":
        _misdrawn(b, hand_card, "no_burn_due", "No burn is due now.")
    elif phase(b.round) == DEALING:
        _deal_initial(b, hand_card, target, box)
    elif phase(b.round) == PLAYERS:
        _deal_to_player(b, hand_card, target, box)
    elif phase(b.round) == BANK:
        _deal_to_bank(b, hand_card, target)
    else:
        _after_bank_turn(b, hand_card, target)


def _read_card(command: RecordCard) -> HandCard:
    card = None if command.card is None else parse_card(command.card)
    if command.source not in SOURCES:
        reject("invalid_source", "A card comes from the tablet or the shoe.")
    if command.physical_id is not None and (
        not isinstance(command.physical_id, str) or not command.physical_id
    ):
        reject("invalid_physical_id", "A physical card id is a non-empty text.")
    if command.face_up not in (None, True, False):
        reject("invalid_face_up", "face_up is true, false or left out.")
    if command.target not in TARGETS:
        reject("invalid_target", "A card is for a box, the bank or a burn.")
    if command.target == "box" and command.box is None:
        reject("invalid_box", "Say which box the card is for.")
    # face_up here means the card was seen dealt face up; where it lies is decided by routing.
    return HandCard(card, command.face_up is True, command.physical_id, command.source)


def _card_data(hand_card: HandCard, **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "card": hand_card.card,
        "physical_id": hand_card.physical_id,
        "source": hand_card.source,
        "face_up": hand_card.face_up,
    }
    data.update(extra)
    return data


def _duplicate(b: EventBuilder, hand_card: HandCard, reason: str) -> None:
    if hand_card.source == TABLET:
        refuse_duplicate()
    round_ = b.state.round
    if round_ is None or not round_in_progress(round_):
        b.emit("card.dead", **_card_data(hand_card), reason="duplicate")
    else:
        b.emit("card.held", **_card_data(hand_card))
    # The first copy may lie face down: the sentence names no card (the log keeps it).
    b.alert(
        "duplicate_card",
        "The shoe read a card a second time since the shuffle.",
        card=hand_card.card,
        physical_id=hand_card.physical_id,
        duplicate_of=reason,
    )


def _close_betting(b: EventBuilder, hand_card: HandCard) -> None:
    if not b.round.boxes:
        if hand_card.source == TABLET:
            refuse("no_wagers", "A round starts only when at least one box has a wager.")
        return
    b.emit("betting.closed")
    settings = b.state.settings
    for box in b.round.boxes:
        if not settings.min_stake <= box.stake <= settings.max_stake:
            b.alert(
                "wager_outside_limits",
                f"Box {box.number}'s stake of {box.stake} is outside the "
                "table limits; it plays and is paid or lost in full.",
                box=box.number,
            )


def _misdrawn(
    b: EventBuilder, hand_card: HandCard, tablet_code: str, why: str, **params: str | int
) -> None:
    """A card nobody asked for: refused from the tablet, recorded with an alert from the shoe."""
    if hand_card.source == TABLET:
        refuse(tablet_code, why, **params)
    round_ = b.state.round
    waits = (
        round_ is not None
        and round_in_progress(round_)
        and b.state.settings.misdrawn_card == "next_draw"
    )
    if waits:
        b.emit("card.misdrawn", **_card_data(replace(hand_card, face_up=True)))
    else:
        b.emit("card.dead", **_card_data(hand_card), reason="misdrawn")
    b.alert("misdrawn_card", f"A card was drawn that nobody asked for: {why}", card=hand_card.card)


def _deal_initial(
    b: EventBuilder, hand_card: HandCard, target: str | None, box: int | None
) -> None:
    round_ = b.round
    due = next_deal_box(round_)
    if target == "bank" or (target is None and due is None):
        if round_.bank:
            _misdrawn(b, hand_card, "card_out_of_order", "The bank already has its card.")
            return
        _deal_bank_initial(b, hand_card)
        return
    number = box if target == "box" else (due.number if due else None)
    receiving = round_.box(number) if number is not None else None
    if receiving is None or receiving.removed is not None:
        _dead_in_deal(b, hand_card, number)
    elif receiving.cards:
        _misdrawn(
            b,
            hand_card,
            "card_out_of_order",
            f"Box {number} already has its first card.",
            box=receiving.number,
        )
    else:
        _deal_face_down_unless_exposed(b, hand_card, "box", receiving.number)


def _dead_in_deal(b: EventBuilder, hand_card: HandCard, number: int | None) -> None:
    """A card dealt to a box without a wager is a dead card."""
    b.emit("card.dead", **_card_data(hand_card), reason="no_wager", box=number)
    b.alert(
        "misdrawn_card",
        f"A card was dealt to box {number}, which has no wager.",
        box=number,
        card=hand_card.card,
    )


def _deal_face_down_unless_exposed(
    b: EventBuilder, hand_card: HandCard, hand: str, box: int | None
) -> None:
    if hand_card.card is None and hand_card.face_up:
        reject("card_required", "The card was dealt face up: enter it.")
    b.emit("card.dealt", **_card_data(hand_card), hand=hand, box=box)


def _deal_bank_initial(b: EventBuilder, hand_card: HandCard) -> None:
    _deal_face_down_unless_exposed(b, hand_card, "bank", None)
    if hand_card.face_up:
        if b.state.settings.exposed_bank_card == "void":
            b.emit("round.held", reason="exposed_bank_card")
        b.alert(
            "bank_card_exposed", "The bank's card was exposed in the deal.", card=hand_card.card
        )


def _deal_to_player(
    b: EventBuilder, hand_card: HandCard, target: str | None, box: int | None
) -> None:
    playing = current_box(b.round)
    assert playing is not None
    if target == "bank":
        _misdrawn(b, hand_card, "not_bank_turn", "It is not the bank's turn.")
    elif target == "box" and box != playing.number:
        _misdrawn(
            b,
            hand_card,
            "not_your_turn",
            f"It is box {playing.number}'s turn, not box {box}'s.",
            box=playing.number,
            requested_box=str(box),
        )
    elif playing.pending_draw is None:
        _misdrawn(
            b,
            hand_card,
            "no_draw_requested",
            f"Box {playing.number} has not asked for a card.",
            box=playing.number,
        )
    else:
        # A card asked face down but dealt face up, or one that would be a second face-down
        # card, belongs to the box face up.
        face_down = (
            playing.pending_draw == "face_down"
            and not hand_card.face_up
            and face_down_count(playing.cards) == 0
        )
        dealt = replace(hand_card, face_up=not face_down)
        if dealt.face_up and dealt.card is None:
            reject("card_required", "This card lies face up: enter it.")
        b.emit("card.dealt", **_card_data(dealt), hand="box", box=playing.number)


def _deal_to_bank(b: EventBuilder, hand_card: HandCard, target: str | None) -> None:
    if target == "box":
        _misdrawn(b, hand_card, "not_your_turn", "It is the bank's turn.")
        return
    if not bank_revealed(b.round):
        if b.round.bank[0].card is None:
            refuse("bank_card_not_revealed", "Turn up and enter the bank's card before it draws.")
        b.emit("card.revealed", hand="bank", box=None, index=0, card=b.round.bank[0].card)
    total = known_total(b.round.bank)
    assert total is not None
    if not bank_must_draw(total):
        _bank_rule_violation(b, hand_card, total)
        return
    if hand_card.card is None:
        reject("card_required", "The bank draws face up: enter the card.")
    b.emit("card.dealt", **_card_data(replace(hand_card, face_up=True)), hand="bank", box=None)


def _bank_rule_violation(b: EventBuilder, hand_card: HandCard, total: int) -> None:
    """A card drawn for the bank at 5 or more does not count, as in blackjack practice."""
    b.emit("card.dead", **_card_data(hand_card), reason="bank_rule")
    b.alert(
        "bank_rule_violation",
        f"A card was drawn for the bank at {format_points(total)}; the bank "
        "stands at 5 or more, so the card is dead.",
        card=hand_card.card,
    )


def _after_bank_turn(b: EventBuilder, hand_card: HandCard, target: str | None) -> None:
    round_ = b.round
    total = known_total(round_.bank)
    if round_.bank_finished and target in (None, "bank") and total is not None:
        _bank_rule_violation(b, hand_card, total)
    else:
        _misdrawn(b, hand_card, "no_card_due", "No card is due now.")


def _after_round(b: EventBuilder, hand_card: HandCard, command: RecordCard) -> None:
    round_ = b.state.round
    if round_ is None:
        if hand_card.source == TABLET:
            refuse("no_round_open", "No round is open at this table.")
        b.emit("card.dead", **_card_data(hand_card), reason="misdrawn")
        b.alert(
            "misdrawn_card",
            "The shoe reported a card while no round was open.",
            card=hand_card.card,
        )
        return
    _after_bank_turn(b, hand_card, command.target)
