"""Collects the events one command produces, evolving a private copy of the state as it goes.

Handlers check first and emit after; when one raises, the partial copy is simply dropped, so a
refused command leaves the round exactly as it was.
"""

from __future__ import annotations

from typing import Any, NoReturn

from tables.engine.errors import InvalidInputError, NotAllowedNowError
from tables.engine.game import Event
from tables.engine.siete.evolve import evolve
from tables.engine.siete.state import Round, SieteState


class EventBuilder:
    def __init__(self, state: SieteState) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, event_type: str, **data: Any) -> None:
        event = Event(event_type, data)
        self.state = evolve(self.state, event)
        self.events.append(event)

    def alert(self, code: str, message: str, **context: Any) -> None:
        self.emit("alert.raised", code=code, message=message, **context)

    @property
    def round(self) -> Round:
        round_ = self.state.round
        if round_ is None:
            refuse("no_round_open", "No round is open at this table.")
        return round_


def refuse(code: str, message: str, **params: str | int) -> NoReturn:
    """The round's state does not allow the command now; `params` are the sentence's values."""
    raise NotAllowedNowError(message, code=code, params=params)


def reject(code: str, message: str, **params: str | int) -> NoReturn:
    """The command itself is malformed; `params` are the sentence's values."""
    raise InvalidInputError(message, code=code, params=params)
