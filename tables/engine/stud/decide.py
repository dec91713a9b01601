"""`decide(state, command)`: check a command against the rules and return the facts it makes.

A command's own events come first; then the facts that follow from them without anyone
acting (a street opening once its cards are out, a betting round closing and returning an
uncalled bet) are appended, so the log reads as the table played.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tables.engine.errors import NotAllowedNowError
from tables.engine.game import Event
from tables.engine.stud import actions, cards, corrections, starting
from tables.engine.stud.betting import is_street_over, uncalled_bets
from tables.engine.stud.commands import (
    Action,
    AskToSee,
    AwardPots,
    Burn,
    ClockExpired,
    Command,
    CorrectHeldCard,
    KillHand,
    Muck,
    RecordCard,
    Show,
    ShowMucked,
    StartHand,
    VoidHand,
)
from tables.engine.stud.evolve import evolve
from tables.engine.stud.opening import street_opening
from tables.engine.stud.showdown import (
    award,
    revealed_down_cards,
    verify_ask_to_see,
    verify_muck,
    verify_show_mucked,
    verify_turn_to_show,
)
from tables.engine.stud.state import (
    AWARDING,
    BETTING,
    DEALING,
    FINISHED_PHASES,
    SHOWDOWN,
    StudState,
)


def decide(state: StudState, command: Command) -> tuple[Event, ...]:
    """The events `command` produces, or a RuleError with nothing recorded."""
    return decide_and_evolve(state, command)[1]


def decide_and_evolve(state: StudState, command: Command) -> tuple[StudState, tuple[Event, ...]]:
    """`decide`, and the state after its events (each was evolved once on the way)."""
    if isinstance(command, StartHand):
        primary = starting.start_hand(state, command)
    else:
        _verify_hand_in_progress(state)
        if not isinstance(command, VoidHand | KillHand | CorrectHeldCard):
            corrections.verify_not_held(state)
        primary = _HANDLERS[type(command)](state, command)
    for event in primary:
        state = evolve(state, event)
    events = list(primary)
    while (follow_up := _automatic_event(state)) is not None:
        events.append(follow_up)
        state = evolve(state, follow_up)
    return state, tuple(events)


def _verify_hand_in_progress(state: StudState) -> None:
    if state.phase in FINISHED_PHASES:
        raise NotAllowedNowError("No hand is in progress at this table.", code="hand_over")


def _automatic_event(state: StudState) -> Event | None:
    if state.phase == DEALING and not state.deal_queue and len(state.in_hand()) > 1:
        return Event("street.opened", street_opening(state))
    if state.phase == BETTING and is_street_over(state):
        data = {"street": state.street, "returned": uncalled_bets(state)}
        return Event("betting.closed", data)
    if state.phase == BETTING:
        return actions.held_action_event(state)
    return None


def _show(state: StudState, command: Any) -> tuple[Event, ...]:
    seat = verify_turn_to_show(state, command.seat)
    down = revealed_down_cards(state, seat, command.cards)
    return (Event("hand.shown", {"seat": seat.seat, "down_cards": down}),)


def _muck(state: StudState, command: Any) -> tuple[Event, ...]:
    verify_muck(state, command.seat)
    return (Event("hand.mucked", {"seat": command.seat}),)


def _ask_to_see(state: StudState, command: Any) -> tuple[Event, ...]:
    verify_ask_to_see(state, command.seat, command.asked_by)
    return (Event("hand.show_requested", {"seat": command.seat, "asked_by": command.asked_by}),)


def _show_mucked(state: StudState, command: Any) -> tuple[Event, ...]:
    seat = verify_show_mucked(state, command.seat)
    down = revealed_down_cards(state, seat, command.cards)
    return (Event("hand.mucked_shown", {"seat": seat.seat, "down_cards": down}),)


def _award(state: StudState, command: Any) -> tuple[Event, ...]:
    if state.phase == SHOWDOWN:
        raise NotAllowedNowError(
            "Every hand still in must be shown or mucked first.", code="showdown_not_finished"
        )
    if state.phase != AWARDING:
        raise NotAllowedNowError("The hand is not over yet.", code="hand_not_over")
    return (Event("pots.awarded", award(state)),)


_HANDLERS: dict[type, Callable[[StudState, Any], tuple[Event, ...]]] = {
    RecordCard: cards.record_card,
    Burn: cards.burn,
    Action: actions.take_action,
    Show: _show,
    Muck: _muck,
    AskToSee: _ask_to_see,
    ShowMucked: _show_mucked,
    AwardPots: _award,
    VoidHand: corrections.void_hand,
    KillHand: corrections.kill_hand,
    CorrectHeldCard: corrections.correct_held_card,
    ClockExpired: actions.clock_expired,
}
