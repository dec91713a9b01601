"""Seven-Card Stud, fixed limit, house raked (RULES.md section 2): the pure rules engine."""

from __future__ import annotations

from collections.abc import Mapping

from tables.engine.game import Event, JSONValue
from tables.engine.stud.commands import Command, command_from_json
from tables.engine.stud.decide import decide
from tables.engine.stud.evolve import evolve
from tables.engine.stud.settings import StudSettings
from tables.engine.stud.state import StudState
from tables.engine.stud.view import audit_view, live_view


class StudGame:
    """The Stud engine as a `tables.engine.game.Game`."""

    name = "seven_card_stud"

    def new_state(self, settings: Mapping[str, JSONValue]) -> StudState:
        return StudState(StudSettings.from_mapping(settings))

    def decide(self, state: StudState, command: Command) -> tuple[Event, ...]:
        return decide(state, command)

    def evolve(self, state: StudState, event: Event) -> StudState:
        return evolve(state, event)


STUD = StudGame()

__all__ = [
    "STUD",
    "Command",
    "StudGame",
    "StudSettings",
    "StudState",
    "audit_view",
    "command_from_json",
    "decide",
    "evolve",
    "live_view",
]
