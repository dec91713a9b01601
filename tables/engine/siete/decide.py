"""decide(state, command): check a command against the rules and return the facts it produces."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tables.engine.errors import InvalidInputError
from tables.engine.game import Event
from tables.engine.siete import commands as c
from tables.engine.siete.automatic import apply_automatic_rules
from tables.engine.siete.builder import EventBuilder
from tables.engine.siete.corrections import (
    correct_held_card,
    correct_payout,
    cut_card,
    move_card,
    record_payout,
    reshuffle,
    update_settings,
    void_box,
    void_round,
)
from tables.engine.siete.dealing import record_card
from tables.engine.siete.state import SieteState
from tables.engine.siete.turns import (
    bank_stand,
    declare_bust,
    expose_bank_card,
    identify_card,
    request_draw,
    reveal,
    reveal_bank,
    sit_out,
    stand,
)
from tables.engine.siete.wagers import cancel_wager, change_wager, place_wager, start_round

_HANDLERS: dict[type[Any], Callable[[EventBuilder, Any], None]] = {
    c.StartRound: start_round,
    c.PlaceWager: place_wager,
    c.ChangeWager: change_wager,
    c.CancelWager: cancel_wager,
    c.RecordCard: record_card,
    c.RequestDraw: request_draw,
    c.Stand: stand,
    c.Reveal: reveal,
    c.DeclareBust: declare_bust,
    c.SitOut: sit_out,
    c.RevealBank: reveal_bank,
    c.ExposeBankCard: expose_bank_card,
    c.BankStand: bank_stand,
    c.IdentifyCard: identify_card,
    c.CorrectHeldCard: correct_held_card,
    c.MoveCard: move_card,
    c.RecordPayout: record_payout,
    c.CorrectPayout: correct_payout,
    c.Reshuffle: reshuffle,
    c.CutCard: cut_card,
    c.VoidRound: void_round,
    c.VoidBox: void_box,
    c.UpdateSettings: update_settings,
}


def decide(state: SieteState, command: c.Command) -> tuple[Event, ...]:
    return decide_and_evolve(state, command)[1]


def decide_and_evolve(
    state: SieteState, command: c.Command
) -> tuple[SieteState, tuple[Event, ...]]:
    """decide, and the state after its events (the builder already evolved each one)."""
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise InvalidInputError(
            f"{command!r} is not a Siete y Medio command.",
            code="unknown_command",
            params={"command": repr(command)},
        )
    builder = EventBuilder(state)
    handler(builder, command)
    apply_automatic_rules(builder)
    return builder.state, tuple(builder.events)
