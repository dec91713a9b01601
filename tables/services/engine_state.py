"""The engine state of a table: the replay of its engine events, cached per process.

The cache is keyed by the table's head hash, read under the table lock, so a stale entry
(another process appended since, or a rolled-back write) is never used; it is replayed again.
"""

from __future__ import annotations

import threading
from typing import Any

from tables.engine.game import Event, replay
from tables.games import binding_for
from tables.models import Table, TableEvent
from tables.services.event_types import is_engine_event

_cache: dict[int, tuple[str, Any]] = {}
_cache_lock = threading.Lock()


def initial_state(table: Table) -> Any:
    return binding_for(table.game).engine.new_state(table.settings)


def engine_events(table: Table, *, up_to_seq: int | None = None) -> list[Event]:
    rows = TableEvent.objects.filter(table=table).order_by("seq").values_list("type", "payload")
    if up_to_seq is not None:
        rows = rows.filter(seq__lte=up_to_seq)
    return [Event(type=kind, data=data) for kind, data in rows.iterator() if is_engine_event(kind)]


def replay_table(table: Table, *, up_to_seq: int | None = None) -> Any:
    engine = binding_for(table.game).engine
    return replay(engine, initial_state(table), engine_events(table, up_to_seq=up_to_seq))


def current_state(table: Table) -> Any:
    """The state at the table's head; the caller holds the table lock when it will write."""
    with _cache_lock:
        cached = _cache.get(table.pk)
    if cached is not None and cached[0] == table.head_hash:
        return cached[1]
    state = replay_table(table)
    remember(table, state)
    return state


def remember(table: Table, state: Any) -> None:
    with _cache_lock:
        _cache[table.pk] = (table.head_hash, state)


def forget(table_id: int | None = None) -> None:
    with _cache_lock:
        if table_id is None:
            _cache.clear()
        else:
            _cache.pop(table_id, None)
