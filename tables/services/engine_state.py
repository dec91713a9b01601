"""The engine state of a table: the replay of its engine events, cached per process.

The cache is keyed by the table's head hash, read under the table lock, so a stale entry
(another process appended since, or a rolled-back write) is never used; it is replayed again.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from tables.engine.game import Event, replay
from tables.games import binding_for
from tables.models import Round, Table, TableEvent
from tables.services.event_types import is_engine_event

IN_PLAY = (Round.Status.OPEN, Round.Status.SETTLED)
_cache: dict[int, tuple[str, Snapshot]] = {}
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


def current_round(table: Table) -> Round | None:
    """The round in play (open, or settled and not yet closed), if any."""
    in_play = Round.objects.filter(table=table, status__in=IN_PLAY).defer("state")
    return in_play.order_by("-number").first()


def latest_round(table: Table) -> Round | None:
    """The table's last round, in play or not: the one its engine state knows."""
    return Round.objects.filter(table=table).defer("state").order_by("-number").first()


@dataclass(frozen=True)
class Snapshot:
    """The engine state at the table's head and the round in play there."""

    state: Any
    round: Round | None


def snapshot(table: Table) -> Snapshot:
    """The caller holds the table lock when it will write."""
    with _cache_lock:
        cached = _cache.get(table.pk)
    if cached is not None and cached[0] == table.head_hash:
        return cached[1]
    found = Snapshot(replay_table(table), current_round(table))
    remember(table, found.state, found.round)
    return found


def current_state(table: Table) -> Any:
    return snapshot(table).state


def remember(table: Table, state: Any, round_: Round | None) -> None:
    """Keep what the head now is. Every write to a round row also moves the head, so the
    round kept here is exactly the row's state while the head hash matches."""
    in_play = round_ if round_ is not None and round_.status in IN_PLAY else None
    with _cache_lock:
        _cache[table.pk] = (table.head_hash, Snapshot(state, in_play))


def forget(table_id: int | None = None) -> None:
    with _cache_lock:
        if table_id is None:
            _cache.clear()
        else:
            _cache.pop(table_id, None)
