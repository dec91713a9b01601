"""The projector registry: each event type's projection declared once, for the live append and
for the rebuild alike.

A projector names the event types it reads, how it writes their rows' projection, and how the
rebuild clears what it wrote for one table before the log is projected again from its first
event. `record` (tables.services.commands) runs the projectors on every append, in the same
transaction; `rebuild_projections` (tables.services.rebuild) runs the same projectors over the
whole log. Apps register their own (the shoe's incidents, the cage's slips) when they load.

The round row is the one projection not here: it is written in the append's own statement
(tables.services.append_statements), and the rebuild uses the same function for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from tables.models import Table, TableEvent


@dataclass(frozen=True)
class Projection:
    """What a projector may read besides the rows: the locked table and, when the rows came
    from its engine, the engine state after them (None for the services' own facts)."""

    table: Table
    state: Any = None


@dataclass(frozen=True)
class Projector:
    name: str
    # Exact event types, and prefixes of types (`device.`), this projector reads.
    types: frozenset[str]
    project: Callable[[Projection, Sequence[TableEvent]], None]
    # Clears (or resets) this projection's rows of one table, for the rebuild.
    reset: Callable[[Table], None]
    prefixes: tuple[str, ...] = ()
    # Whether it also runs on every engine event (a game's own projection reads the state).
    engine_events: bool = False

    def reads(self, event_type: str, from_engine: bool) -> bool:
        return (
            event_type in self.types
            or event_type.startswith(self.prefixes)
            or (self.engine_events and from_engine)
        )


_PROJECTORS: list[Projector] = []


def register(projector: Projector) -> None:
    """Add (or replace, by name) a projector; they run in the order first registered."""
    for index, known in enumerate(_PROJECTORS):
        if known.name == projector.name:
            _PROJECTORS[index] = projector
            break
    else:
        _PROJECTORS.append(projector)
    _readers.cache_clear()


def registered() -> tuple[Projector, ...]:
    return tuple(_PROJECTORS)


@cache
def _readers(event_type: str) -> tuple[Projector, ...]:
    from tables.services.event_types import is_engine_event

    engine = is_engine_event(event_type)
    return tuple(p for p in _PROJECTORS if p.reads(event_type, engine))


def project(projection: Projection, rows: Sequence[TableEvent]) -> None:
    """Run every projector that reads any of `rows`, each once with the rows it reads, in the
    order they were registered. The caller holds the table lock."""
    if len(rows) == 1:  # the common append: one fact, no grouping to do
        for projector in _readers(rows[0].type):
            projector.project(projection, rows)
        return
    for projector in _PROJECTORS:
        mine = [row for row in rows if projector in _readers(row.type)]
        if mine:
            projector.project(projection, mine)


def reset(table: Table) -> None:
    """Clear every projection of `table`, last registered first (a later projection may point
    at an earlier one's rows, as a shoe incident points at its alert)."""
    for projector in reversed(_PROJECTORS):
        projector.reset(table)
