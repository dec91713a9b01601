"""The engines' own simulations played through the services: every command by table_command.

Long histories for the snapshot tests and the benchmarks' seeded tables. The simulated
players and dealing are the engine simulations' (tables/engine/*/simulation.py); only where
a command goes changes: through the lock, the log and the projections, as a tablet's would.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from random import Random
from typing import Any

from django.contrib.auth.models import User

from tables.engine.game import Event
from tables.engine.siete import simulation as siete_simulation
from tables.engine.stud import simulation as stud_simulation
from tables.engine.stud.commands import SeatEntry, StartHand
from tables.engine.stud.invariants import Tally
from tables.engine.stud.settings import StudSettings
from tables.models import Table, TableEvent
from tables.services.commands import command_name, table_command
from tables.services.engine_state import current_state
from tables.services.event_types import is_engine_event
from tables.services.floor import table_create, table_set_status

SIETE_SETTINGS = siete_simulation.simulation_settings("push").to_mapping()
STUD_SETTINGS = dict(stud_simulation.DEFAULT_SETTINGS)
TABLET = TableEvent.Source.TABLET


def open_table(name: str, game: str, settings: Mapping[str, Any], pit_boss: User) -> Table:
    table = table_create(
        name=name, game=game, seat_count=8 if game == "seven_card_stud" else 6,
        settings=settings, actor=pit_boss,
    )  # fmt: skip
    table_set_status(table_id=table.pk, status=Table.Status.OPEN, actor=pit_boss)
    return table


def send(table_id: int, command: Any, actor: User) -> tuple[Any, tuple[Event, ...]]:
    """The state after `command` and the engine events it recorded."""
    # A hand is opened by the service itself (the stacks come from the seats), as the API's
    # round opening does; every other command comes from the dealer's tablet.
    source = TableEvent.Source.SYSTEM if command_name(command) == "start_hand" else TABLET
    outcome = table_command(table_id=table_id, command=command, actor=actor, source=source)
    events = tuple(Event(r.type, r.payload) for r in outcome.events if is_engine_event(r.type))
    return outcome.state, events


class SieteServiceTable(siete_simulation.EngineTable):
    """The simulation's table, each command sent through the services."""

    def __init__(self, table: Table, actor: User, rng: Random) -> None:
        settings = siete_simulation.simulation_settings("push")
        super().__init__(settings, siete_simulation.FreshDeck(rng), stand_halves=10)
        self.table_id, self.actor = table.pk, actor
        self.state = current_state(table)

    def apply(self, command: Any) -> None:
        self.state = send(self.table_id, command, self.actor)[0]


class StudServiceTable:
    """Stands in for the simulation's StudTable: `initial` and `events` cover this hand."""

    def __init__(self, table: Table, actor: User) -> None:
        self.table_id, self.actor = table.pk, actor
        self.state = self.initial = current_state(table)
        self.events: list[Event] = []

    def apply(self, command: Any) -> tuple[Event, ...]:
        self.state, events = send(self.table_id, command, self.actor)
        self.events.extend(events)
        return events

    def start(self, stacks: Mapping[int, int]) -> tuple[Event, ...]:
        entries = tuple(SeatEntry(seat, f"p{seat}", stack) for seat, stack in stacks.items())
        return self.apply(StartHand(entries))


def play_siete(table: Table, actor: User, rounds: int, seed: int = 7) -> None:
    served = SieteServiceTable(table, actor, Random(seed))
    for number in range(rounds):
        served.play_round(seats=1 + number % 6)


def play_stud(table: Table, actor: User, hands: int, seed: int = 7) -> Tally:
    """`hands` hands of four to six random players; the simulation's invariants checked."""
    rng, tally = Random(seed), Tally()
    settings = StudSettings.from_mapping(STUD_SETTINGS)
    for number in range(hands):
        with _hands_played_at(table, actor):
            stud_simulation.play_hand(settings, 4 + number % 3, "random", rng, tally)
    return tally


@contextmanager
def _hands_played_at(table: Table, actor: User) -> Iterator[None]:
    """The simulation builds its own StudTable per hand: this hand's is the service's."""
    simulation: Any = stud_simulation
    original = simulation.StudTable
    simulation.StudTable = lambda settings: StudServiceTable(table, actor)
    try:
        yield
    finally:
        simulation.StudTable = original
