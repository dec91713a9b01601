"""A deliberately tiny game for testing the event log without any real game's rules.

Rounds open, receive positive additions up to a house limit, raise an alert above a
threshold, and close or are voided. It plugs into the services exactly as the real
engines do, through a GameBinding.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from tables import games
from tables.engine.errors import InvalidInputError, NotAllowedNowError
from tables.engine.game import Event

KEY = "tally"


@dataclass(frozen=True)
class TallyState:
    max_add: int
    round_number: int | None = None
    status: str = games.ROUND_NONE
    total: int = 0
    rounds_closed: int = 0


@dataclass(frozen=True)
class OpenRound:
    pass


@dataclass(frozen=True)
class Add:
    amount: int


@dataclass(frozen=True)
class CloseRound:
    pass


@dataclass(frozen=True)
class VoidRound:
    reason: str


class TallyGame:
    name = KEY

    def new_state(self, settings: Mapping[str, Any]) -> TallyState:
        return TallyState(max_add=int(settings.get("max_add", 100)))

    def decide(self, state: TallyState, command: Any) -> tuple[Event, ...]:
        if isinstance(command, OpenRound):
            return (Event("round.opened", {"number": (state.round_number or 0) + 1}),)
        if state.status != games.ROUND_OPEN:
            raise NotAllowedNowError("No round is open.", code="round_not_open")
        if isinstance(command, Add):
            return self._add(state, command)
        if isinstance(command, CloseRound):
            return (Event("round.closed", {"total": state.total}),)
        return (Event("round.voided", {"reason": command.reason}),)

    def _add(self, state: TallyState, command: Add) -> tuple[Event, ...]:
        if command.amount > state.max_add:
            raise NotAllowedNowError("That is more than the table allows.", code="too_much")
        events = [Event("tally.added", {"amount": command.amount})]
        if command.amount >= state.max_add // 2:
            events.append(Event("alert.raised", {"code": "big_add", "message": "A big addition."}))
        return tuple(events)

    def evolve(self, state: TallyState, event: Event) -> TallyState:
        data = event.data
        if event.type == "round.opened":
            return replace(state, round_number=data["number"], status=games.ROUND_OPEN, total=0)
        if event.type == "tally.added":
            return replace(state, total=state.total + data["amount"])
        if event.type == "round.closed":
            return replace(state, status=games.ROUND_CLOSED, rounds_closed=state.rounds_closed + 1)
        if event.type == "round.voided":
            return replace(state, status=games.ROUND_VOIDED)
        if event.type == "alert.raised":
            return state
        raise ValueError(f"unknown event {event.type}")


def command_from_json(kind: str, data: Mapping[str, Any]) -> Any:
    if kind == "add":
        amount = data.get("amount")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise InvalidInputError(
                "The amount must be a positive whole number.", code="bad_amount"
            )
        return Add(amount)
    if kind == "close":
        return CloseRound()
    if kind == "void_round":
        return VoidRound(reason=str(data.get("reason", "")))
    raise InvalidInputError(f"Unknown command {kind!r}.", code="unknown_command")


def parse_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    max_add = settings.get("max_add", 100)
    if not isinstance(max_add, int) or max_add <= 0:
        raise InvalidInputError("max_add must be a positive whole number.", code="bad_setting")
    return {"max_add": max_add}


def view(state: TallyState) -> dict[str, Any]:
    return {"round": state.round_number, "status": state.status, "total": state.total}


BINDING = games.GameBinding(
    key=KEY,
    engine=TallyGame(),
    parse_settings=parse_settings,
    command_from_json=command_from_json,
    open_round_command=lambda table: OpenRound(),
    live_view=view,
    audit_view=view,
    round_status=lambda state: state.status,
    approval_commands=frozenset({"void_round"}),
)
