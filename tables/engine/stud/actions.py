"""Betting actions: checked against the legal options, then recorded with their exact amounts."""

from __future__ import annotations

from tables.engine.errors import InvalidInputError, NotAllowedNowError
from tables.engine.frozen import changed
from tables.engine.game import Event
from tables.engine.stud.betting import (
    AGGRESSIVE,
    Option,
    cap_allows,
    is_full,
    options,
    uses_big_bet,
)
from tables.engine.stud.commands import Action, ClockExpired
from tables.engine.stud.state import BETTING, SeatState, StudState


def verify_seat_in_hand(state: StudState, number: int) -> SeatState:
    if not state.has_seat(number):
        raise InvalidInputError(
            f"Seat {number} is not dealt in this hand.",
            code="unknown_seat",
            params={"seat": number},
        )
    seat = state.seat(number)
    if not seat.in_hand:
        raise NotAllowedNowError(
            f"Seat {number} is no longer in the hand.", code="not_in_hand", params={"seat": number}
        )
    return seat


def take_action(state: StudState, command: Action) -> tuple[Event, ...]:
    seat = verify_seat_in_hand(state, command.seat)
    betting = state.betting
    if state.phase != BETTING or betting is None or betting.to_act is None:
        raise NotAllowedNowError("No betting is open now.", code="not_betting_now")
    if seat.all_in:
        raise NotAllowedNowError(
            f"Seat {seat.seat} is all-in.", code="player_all_in", params={"seat": seat.seat}
        )
    if command.kind == "fold" and command.seat != betting.to_act:
        # TDA 53, 58: a fold out of turn is binding at once.
        option = Option("fold", seat.street_bet, 0, False)
        return (_event(state, command.seat, option, out_of_turn=True),)
    if command.seat != betting.to_act:
        return (_declare_out_of_turn(state, seat, command),)
    option = _chosen_option(state, seat, command)
    return (_event(state, command.seat, option, out_of_turn=False),)


def _declare_out_of_turn(state: StudState, seat: SeatState, command: Action) -> Event:
    """Robert's Rules, TDA 53: the action stands if nobody bets or raises before the turn comes."""
    betting = state.betting
    assert betting is not None
    binding = state.settings.out_of_turn == "binding_if_unchanged"
    if not binding or betting.bring_in_due or seat.seat not in betting.pending:
        raise NotAllowedNowError(
            f"It is seat {betting.to_act}'s turn, not seat {seat.seat}'s.",
            code="not_your_turn",
            params={"to_act": str(betting.to_act), "seat": seat.seat},
        )
    if betting.held_for(seat.seat) is not None:
        raise NotAllowedNowError(
            f"Seat {seat.seat} has already acted out of turn; wait for the turn.",
            code="already_declared",
            params={"seat": seat.seat},
        )
    as_if_in_turn = changed(state, betting=changed(betting, to_act=seat.seat))
    option = _chosen_option(as_if_in_turn, seat, command)
    data = {"street": state.street, "seat": seat.seat, "action": option.kind, "to": option.to}
    return Event("action.held", {**data, "level": betting.level, "count": betting.count})


def held_action_event(state: StudState) -> Event | None:
    """When the turn reaches a seat that acted early: the action stands, or every option returns."""
    betting = state.betting
    if betting is None or betting.to_act is None:
        return None
    held = betting.held_for(betting.to_act)
    if held is None:
        return None
    unchanged = held.level == betting.level and held.count == betting.count
    legal = [o for o in options(state, held.seat) if (o.kind, o.to) == (held.kind, held.to)]
    if unchanged and legal:
        return _event(state, held.seat, legal[0], out_of_turn=False, declared_early=True)
    return Event("action.released", {"street": state.street, "seat": held.seat})


def clock_expired(state: StudState, command: ClockExpired) -> tuple[Event, ...]:
    """TDA 29: when time runs out the hand checks if no bet is due, and otherwise folds."""
    seat = verify_seat_in_hand(state, command.seat)
    betting = state.betting
    if state.phase != BETTING or betting is None or betting.to_act != seat.seat:
        raise NotAllowedNowError(
            "The clock can only run out on the seat whose turn it is.", code="not_your_turn"
        )
    legal = {option.kind: option for option in options(state, seat.seat)}
    # A forced bring-in that may not fold is posted: the bring-in is not a choice.
    kind = next(k for k in ("check", "fold", "bring_in") if k in legal)
    return (_event(state, seat.seat, legal[kind], out_of_turn=False, timed_out=True),)


def _chosen_option(state: StudState, seat: SeatState, command: Action) -> Option:
    legal = options(state, seat.seat)
    matching = [option for option in legal if option.kind == command.kind]
    if not matching:
        raise _not_legal(state, seat, command.kind, legal)
    if command.amount is None:
        if len(matching) > 1:
            amounts = " or ".join(str(option.to) for option in matching)
            raise InvalidInputError(
                f"Say the amount of the {command.kind}: {amounts}.",
                code="amount_required",
                params={"action": command.kind, "amounts": amounts},
            )
        return matching[0]
    for option in matching:
        if option.to == command.amount:
            return option
    if command.amount > seat.street_bet + seat.stack:
        raise InvalidInputError(
            f"Seat {seat.seat} has only {seat.stack} behind; the most it can reach is "
            f"{seat.street_bet + seat.stack}.",
            code="insufficient_chips",
            params={
                "seat": seat.seat,
                "stack": seat.stack,
                "most": seat.street_bet + seat.stack,
            },
        )
    amounts = " or ".join(str(option.to) for option in matching)
    raise InvalidInputError(
        f"A {command.kind} by seat {seat.seat} goes to {amounts}, not {command.amount}.",
        code="wrong_amount",
        params={
            "action": command.kind,
            "seat": seat.seat,
            "amounts": amounts,
            "amount": command.amount,
        },
    )


def _not_legal(
    state: StudState, seat: SeatState, kind: str, legal: tuple[Option, ...]
) -> Exception:
    betting = state.betting
    assert betting is not None
    allowed = ", ".join(sorted({option.kind for option in legal}))
    if betting.bring_in_due:
        return NotAllowedNowError(
            f"Seat {seat.seat} must bring in or complete ({allowed}).",
            code="bring_in_required",
            params={"seat": seat.seat, "allowed": allowed},
        )
    if kind in AGGRESSIVE and betting.count and not cap_allows(state):
        return NotAllowedNowError("The betting is capped on this street.", code="raise_cap_reached")
    if kind in AGGRESSIVE and seat.seat not in betting.may_raise:
        return NotAllowedNowError(
            "A short all-in did not reopen the betting: call or fold.", code="betting_not_reopened"
        )
    if kind == "check":
        return NotAllowedNowError(
            f"Seat {seat.seat} faces a bet and cannot check ({allowed}).",
            code="cannot_check",
            params={"seat": seat.seat, "allowed": allowed},
        )
    return NotAllowedNowError(
        f"Seat {seat.seat} cannot {kind.replace('_', ' ')} now; allowed: {allowed}.",
        code="action_not_allowed",
        params={"seat": seat.seat, "action": kind, "allowed": allowed},
    )


def _event(
    state: StudState, seat: int, option: Option, *, out_of_turn: bool, **flags: bool
) -> Event:
    return Event(
        "action.taken",
        {
            **flags,
            "street": state.street,
            "seat": seat,
            "action": option.kind,
            "to": option.to,
            "adds": option.adds,
            "all_in": option.all_in,
            "full": is_full(state, option),
            "big": uses_big_bet(state, option),
            "out_of_turn": out_of_turn,
        },
    )
