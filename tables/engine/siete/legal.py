"""The commands the tablet may offer right now, worked out from what is visible only."""

from __future__ import annotations

from typing import Any

from tables.engine.siete.rules import (
    BANK,
    BETTING,
    DEALING,
    PLAYERS,
    SETTLING,
    active_boxes,
    bank_revealed,
    current_box,
    face_down_count,
    phase,
    round_in_progress,
)
from tables.engine.siete.settings import BOXES
from tables.engine.siete.state import Round, SieteState


def legal_commands(state: SieteState) -> list[dict[str, Any]]:
    round_ = state.round
    if not round_in_progress(round_):
        return _between_rounds(state)
    assert round_ is not None
    if round_.held:
        held = [{"type": "void_round"}]
        return held + ([{"type": "correct_held_card"}] if round_.held == "duplicate_card" else [])
    by_phase = {
        BETTING: _betting,
        DEALING: _dealing,
        PLAYERS: _players,
        BANK: _bank,
        SETTLING: _settling,
    }
    commands = by_phase[phase(round_)](state, round_)
    if phase(round_) != SETTLING:
        # A busted box is settled at once: its unknown card is entered as it is collected.
        commands.extend(
            {"type": "identify_card", "box": box.number}
            for box in active_boxes(round_)
            if box.bust in ("declared", "visible") and any(c.card is None for c in box.cards)
        )
    commands.append({"type": "reshuffle"})
    commands.append({"type": "void_round"})
    if phase(round_) != BETTING:
        commands.extend({"type": "void_box", "box": box.number} for box in active_boxes(round_))
    return commands


def _between_rounds(state: SieteState) -> list[dict[str, Any]]:
    commands: list[dict[str, Any]] = [{"type": "start_round"}]
    commands.extend({"type": "place_wager", "box": number} for number in range(1, BOXES + 1))
    round_ = state.round
    if round_ is not None:
        commands.extend(
            {"type": "record_payout", "box": box.number}
            for box in round_.boxes
            if box.recorded_payout is None
        )
    commands.extend([{"type": "update_settings"}, {"type": "reshuffle"}])
    if not state.shoe.cut_card_out:
        commands.append({"type": "cut_card"})
    return commands


def _betting(state: SieteState, round_: Round) -> list[dict[str, Any]]:
    taken = {box.number for box in round_.boxes}
    commands: list[dict[str, Any]] = [
        {"type": "place_wager", "box": n} for n in range(1, BOXES + 1) if n not in taken
    ]
    for number in sorted(taken):
        commands.append({"type": "change_wager", "box": number})
        commands.append({"type": "cancel_wager", "box": number})
    if taken:
        commands.append({"type": "record_card"})
    commands.append({"type": "update_settings"})
    return commands


def _dealing(state: SieteState, round_: Round) -> list[dict[str, Any]]:
    return [{"type": "record_card"}]


def _players(state: SieteState, round_: Round) -> list[dict[str, Any]]:
    box = current_box(round_)
    assert box is not None
    number = box.number
    if box.pending_draw is not None:
        return [{"type": "record_card", "box": number}]
    commands: list[dict[str, Any]] = [
        {"type": "stand", "box": number},
        {"type": "request_draw", "box": number, "face_down": False},
    ]
    if face_down_count(box.cards) == 0:
        commands.append({"type": "request_draw", "box": number, "face_down": True})
    else:
        commands.append({"type": "reveal", "box": number})
    commands.append({"type": "declare_bust", "box": number})
    if state.settings.exposed_player_card == "player_option" and not round_.first_decision:
        commands.extend(
            {"type": "sit_out", "box": b.number}
            for b in active_boxes(round_)
            if b.cards and b.cards[0].face_up
        )
    return commands


def _bank(state: SieteState, round_: Round) -> list[dict[str, Any]]:
    if not bank_revealed(round_):
        return [{"type": "reveal_bank"}]
    return [{"type": "record_card", "target": "bank"}]


def _settling(state: SieteState, round_: Round) -> list[dict[str, Any]]:
    commands: list[dict[str, Any]] = []
    if not bank_revealed(round_):
        commands.append({"type": "reveal_bank"})
    for box in active_boxes(round_):
        if any(c.card is None for c in box.cards):
            commands.append({"type": "identify_card", "box": box.number})
    return commands
