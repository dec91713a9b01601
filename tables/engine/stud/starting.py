"""Starting a hand: who is dealt in, and the antes."""

from __future__ import annotations

from tables.engine.errors import InvalidInputError, NotAllowedNowError
from tables.engine.game import Event
from tables.engine.stud.commands import SeatEntry, StartHand
from tables.engine.stud.state import FINISHED_PHASES, StudState

MAX_PLAYERS = 8


def start_hand(state: StudState, command: StartHand) -> tuple[Event, ...]:
    if state.phase not in FINISHED_PHASES:
        raise NotAllowedNowError("A hand is already in progress.", code="hand_in_progress")
    entries = sorted(command.seats, key=lambda entry: entry.seat)
    _verify_entries(state, entries)
    dealt_in = [entry for entry in entries if _dealt_in(state, entry)]
    if len(dealt_in) < 2:
        raise NotAllowedNowError(
            "A hand needs at least two players with chips.", code="not_enough_players"
        )
    if len(dealt_in) > MAX_PLAYERS:
        raise InvalidInputError("Stud is dealt to at most eight players.", code="too_many_players")
    started = Event(
        "hand.started",
        {
            "seats": [
                {"seat": e.seat, "player_id": e.player_id, "stack": e.stack} for e in entries
            ],
            "dealt_in": [e.seat for e in dealt_in],
            "sitting_out": [e.seat for e in entries if e not in dealt_in],
        },
    )
    return (started, *_antes(state, dealt_in))


def _verify_entries(state: StudState, entries: list[SeatEntry]) -> None:
    numbers = [entry.seat for entry in entries]
    if len(set(numbers)) != len(numbers):
        raise InvalidInputError("A seat is listed twice.", code="duplicate_seat")
    players = [entry.player_id for entry in entries]
    if len(set(players)) != len(players):
        raise InvalidInputError("A player is listed in two seats.", code="duplicate_player")
    for entry in entries:
        if entry.seat < 1:
            raise InvalidInputError(
                f"Seat {entry.seat} does not exist.",
                code="unknown_seat",
                params={"seat": entry.seat},
            )
        if entry.stack < 0 or entry.stack % state.settings.chip:
            raise InvalidInputError(
                f"Seat {entry.seat}'s stack must be whole chips of {state.settings.chip}.",
                code="not_whole_chips",
                params={"seat": entry.seat, "chip": state.settings.chip},
            )


def _dealt_in(state: StudState, entry: SeatEntry) -> bool:
    """Seated with chips; under `short_ante: sit_out`, with at least the ante."""
    if entry.stack == 0:
        return False
    return state.settings.short_ante == "all_in" or entry.stack >= state.settings.ante


def _antes(state: StudState, dealt_in: list[SeatEntry]) -> list[Event]:
    ante = state.settings.ante
    if ante == 0:
        return []
    events = []
    for entry in dealt_in:
        amount = min(ante, entry.stack)
        data = {"seat": entry.seat, "amount": amount, "all_in": amount == entry.stack}
        events.append(Event("ante.posted", data))
    return events
