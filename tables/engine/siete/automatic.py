"""What the rules do by themselves after every command, applied until nothing more follows:
visible busts, the automatic stand on an all-face-up 7½, undeclared busts, the bank's forced
stand, misdrawn cards waiting for a draw, settlement of each box and the close of the round.
"""

from __future__ import annotations

from fractions import Fraction

from tables.engine.siete.builder import EventBuilder
from tables.engine.siete.cards import SIETE_Y_MEDIO_HALVES
from tables.engine.siete.rules import (
    BANK,
    PLAYERS,
    SETTLING,
    active_boxes,
    all_known,
    bank_must_draw,
    bank_revealed,
    codes,
    current_box,
    known_total,
    phase,
    player_stands_on_seven_and_half,
    round_in_progress,
    visibly_bust,
)
from tables.engine.siete.settlement import BoxResult, bust_result, format_amount, settle_box
from tables.engine.siete.state import Box, Round


def apply_automatic_rules(b: EventBuilder) -> None:
    while round_in_progress(b.state.round) and not b.round.held:
        round_ = b.round
        if not (
            _player_turn_rules(b, round_)
            or _undeclared_bust(b, round_)
            or _bank_rules(b, round_)
            or _settle_boxes(b, round_)
        ):
            _close_round(b, round_)
            return


def _player_turn_rules(b: EventBuilder, round_: Round) -> bool:
    playing = current_box(round_) if phase(round_) == PLAYERS else None
    if playing is None:
        return False
    if playing.pending_draw and round_.misdrawn_waiting:
        b.emit(
            "card.dealt",
            card=round_.misdrawn_waiting[0].card,
            face_up=True,
            hand="box",
            box=playing.number,
            from_waiting=True,
        )
    elif visibly_bust(playing.cards):
        # A busted box is settled at once and its cards are turned up as they are collected,
        # before anything that depends on its face-down card is said.
        if _turn_up_known_cards(b, playing):
            return True
        # Already over 7½ before the card that made the bust visible: the player kept drawing
        # without declaring. The bust is visible now, so the box no longer calls the bank.
        before = known_total(playing.cards[:-1])
        if before is not None and before > SIETE_Y_MEDIO_HALVES:
            _undeclared_alert(b, playing)
        b.emit("box.bust", box=playing.number, kind="visible")
    elif player_stands_on_seven_and_half(playing.cards):
        b.emit("box.stood", box=playing.number, automatic=True)
    else:
        return False
    return True


def _undeclared_alert(b: EventBuilder, box: Box) -> None:
    b.alert(
        "undeclared_bust",
        f"Box {box.number} went over 7½ without declaring it; it is settled as a bust.",
        box=box.number,
    )


def _turn_up_known_cards(b: EventBuilder, box: Box) -> bool:
    """Turn up the box's face-down cards the shoe read (a tablet card is entered instead)."""
    hidden = [i for i, c in enumerate(box.cards) if not c.face_up and c.card is not None]
    for index in hidden:
        card = box.cards[index].card
        b.emit("card.revealed", hand="box", box=box.number, index=index, card=card)
    return bool(hidden)


def _undeclared_bust(b: EventBuilder, round_: Round) -> bool:
    """Found when the box's cards are turned up to settle it, after the bank's turn: until
    then the table cannot see the face-down card, so nothing may show the bust."""
    if phase(round_) != SETTLING:
        return False
    for box in active_boxes(round_):
        total = known_total(box.cards)
        if (
            box.turn_over
            and box.bust is None
            and total is not None
            and total > SIETE_Y_MEDIO_HALVES
        ):
            _turn_up_known_cards(b, box)
            _undeclared_alert(b, box)
            b.emit("box.bust", box=box.number, kind="undeclared")
            return True
    return False


def _bank_rules(b: EventBuilder, round_: Round) -> bool:
    if phase(round_) != BANK or not bank_revealed(round_):
        return False
    total = known_total(round_.bank)
    assert total is not None
    if bank_must_draw(total):
        if not round_.misdrawn_waiting:
            return False
        b.emit(
            "card.dealt",
            card=round_.misdrawn_waiting[0].card,
            face_up=True,
            hand="bank",
            box=None,
            from_waiting=True,
        )
    else:
        b.emit("bank.finished", total_halves=total, bust=total > SIETE_Y_MEDIO_HALVES)
    return True


def _settle_boxes(b: EventBuilder, round_: Round) -> bool:
    bank_known = phase(round_) == SETTLING and all_known(round_.bank)
    for box in active_boxes(round_):
        if box.result is not None or not all_known(box.cards):
            continue
        if box.bust is not None:
            _turn_up_known_cards(b, box)
            _emit_settled(b, box, bust_result(codes(box.cards), box.stake))
            return True
        if box.turn_over and bank_known:
            _turn_up_known_cards(b, box)
            result = settle_box(codes(box.cards), codes(round_.bank), box.stake, b.state.settings)
            _emit_settled(b, box, result)
            return True
    return False


def _emit_settled(b: EventBuilder, box: Box, result: BoxResult) -> None:
    b.emit(
        "box.settled",
        box=box.number,
        outcome=result.outcome,
        hand_class=result.hand_class,
        total_halves=result.total_halves,
        stake=result.stake,
        net=result.net,
        returned=result.returned,
        breakage=format_amount(result.breakage),
    )


def _close_round(b: EventBuilder, round_: Round) -> None:
    """The round closes only when every card of every box and of the bank is known."""
    boxes = active_boxes(round_)
    if phase(round_) != SETTLING or not all_known(round_.bank):
        return
    if any(box.result is None for box in boxes):
        return
    # R2: with no bank turn the bank's card is still turned up and recorded.
    for index, hand_card in enumerate(round_.bank):
        if not hand_card.face_up:
            b.emit("card.revealed", hand="bank", box=None, index=index, card=hand_card.card)
    for waiting in round_.misdrawn_waiting:
        b.emit("card.dead", card=waiting.card, face_up=True, reason="misdrawn", from_waiting=True)
    staked = sum(box.stake for box in boxes)
    returned = sum(box.result.returned for box in boxes if box.result)
    breakage = sum((box.result.breakage for box in boxes if box.result), Fraction(0))
    b.emit(
        "round.settled",
        staked=staked,
        returned=returned,
        house_result=staked - returned,
        breakage=format_amount(breakage),
    )
