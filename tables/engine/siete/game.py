"""The Siete y Medio game object the event log, the services and the simulation use."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tables.engine.game import Event
from tables.engine.siete.commands import Command
from tables.engine.siete.decide import decide
from tables.engine.siete.evolve import evolve
from tables.engine.siete.settings import SieteSettings
from tables.engine.siete.state import SieteState


class SieteYMedio:
    name = "siete_y_medio"

    def new_state(self, settings: Mapping[str, Any]) -> SieteState:
        return SieteState(settings=SieteSettings.from_mapping(settings))

    def decide(self, state: SieteState, command: Command) -> tuple[Event, ...]:
        return decide(state, command)

    def evolve(self, state: SieteState, event: Event) -> SieteState:
        return evolve(state, event)


SIETE = SieteYMedio()
