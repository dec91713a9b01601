"""A test driver: runs commands through the engine's decide and evolve, keeping every event."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tables.engine.game import Event, replay
from tables.engine.siete import SIETE, SieteState, command_from_json, live_view
from tables.engine.siete.commands import Command


class Table:
    def __init__(self, **settings: Any) -> None:
        self.start = SIETE.new_state(settings)
        self.state: SieteState = self.start
        self.events: list[Event] = []

    def do(self, command: Command) -> tuple[Event, ...]:
        events = SIETE.decide(self.state, command)
        for event in events:
            self.state = SIETE.evolve(self.state, event)
        self.events.extend(events)
        return events

    def json(self, command_type: str, data: Mapping[str, Any] | None = None) -> tuple[Event, ...]:
        return self.do(command_from_json(command_type, dict(data or {})))

    def replayed(self) -> SieteState:
        return replay(SIETE, self.start, self.events)

    def alerts(self) -> list[str]:
        return [e.data["code"] for e in self.events if e.type == "alert.raised"]

    def types(self) -> list[str]:
        return [e.type for e in self.events]

    def settled(self, box: int) -> Mapping[str, Any]:
        found = [e.data for e in self.events if e.type == "box.settled" and e.data["box"] == box]
        assert len(found) == 1, found
        return found[0]

    def view(self) -> dict[str, Any]:
        return live_view(self.state)

    @property
    def phase(self) -> str:
        return str(self.view()["phase"])


def refusal(table: Table, command: Command) -> str:
    """The code of the refusal `command` meets; the table must be left exactly as it was."""
    from tables.engine.errors import RuleError

    before = table.state
    try:
        table.do(command)
    except RuleError as error:
        assert table.state is before
        return error.code
    raise AssertionError(f"{command!r} was not refused")
