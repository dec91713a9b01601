"""A small driver that feeds commands through decide and evolve: simulations and scripts use it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tables.engine.game import Event
from tables.engine.stud.commands import Command, RecordCard, SeatEntry, StartHand
from tables.engine.stud.decide import decide_and_evolve
from tables.engine.stud.settings import StudSettings
from tables.engine.stud.state import StudState


class StudTable:
    """The current state and every event so far; a refused command changes neither."""

    def __init__(self, settings: StudSettings | Mapping[str, Any]) -> None:
        if not isinstance(settings, StudSettings):
            settings = StudSettings.from_mapping(settings)
        self.initial = StudState(settings)
        self.state = self.initial
        self.events: list[Event] = []

    def apply(self, command: Command) -> tuple[Event, ...]:
        self.state, events = decide_and_evolve(self.state, command)
        self.events.extend(events)
        return events

    def start(self, stacks: Mapping[int, int]) -> tuple[Event, ...]:
        """Start a hand with `stacks` by seat number; players are named p<seat>."""
        entries = tuple(SeatEntry(seat, f"p{seat}", stack) for seat, stack in stacks.items())
        return self.apply(StartHand(entries))

    def deal(self, cards: Iterable[str | None]) -> None:
        """Record cards in dealing order, each to whoever is due."""
        for card in cards:
            self.apply(RecordCard(card))
