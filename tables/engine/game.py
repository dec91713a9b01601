"""The contract every game engine offers to the event log, the simulations and the replay.

An engine is a set of pure functions over frozen values:

* ``decide(state, command) -> tuple[Event, ...]`` checks a command against the rules and
  returns the facts it produces, or raises a :class:`~tables.engine.errors.RuleError`;
* ``evolve(state, event) -> state`` applies one recorded fact;
* ``replay(game, events)`` folds ``evolve`` over a history.

Events cross the boundary as plain :class:`Event` records (a dotted past-tense type and a
JSON-ready mapping), which is exactly what the log stores, so replaying the log and
replaying an engine's own output are the same operation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

JSONValue = Any  # ints, strs, bools, None, lists and dicts of them; never floats (money is exact)


@dataclass(frozen=True)
class Event:
    """One recorded fact: ``type`` is dotted and past tense (``card.dealt``)."""

    type: str
    data: Mapping[str, JSONValue] = field(default_factory=dict)


StateT = TypeVar("StateT")
CommandT = TypeVar("CommandT", contravariant=True)


class Game(Protocol, Generic[StateT, CommandT]):
    """What the services need of a game engine; each game module provides one."""

    name: str

    def new_state(self, settings: Mapping[str, JSONValue]) -> StateT: ...

    def decide(self, state: StateT, command: CommandT) -> tuple[Event, ...]: ...

    def evolve(self, state: StateT, event: Event) -> StateT: ...


def replay(game: Game[StateT, Any], state: StateT, events: Iterable[Event]) -> StateT:
    """Fold a history of events onto a starting state."""
    for event in events:
        state = game.evolve(state, event)
    return state
