"""The engine state of a table: its latest stored snapshot and the events after it.

The first level is a cache per process, keyed by the table's head hash read under the table
lock, so a stale entry (another process appended since, or a rolled-back write) is never
used. On a miss the state is the latest snapshot the log still vouches for (services.snapshots)
with the few engine events after it replayed, so any process reads the same state at the same
cost whatever the table's age. The replay from seq 1 (`replay_table`) stays the reference of
the verifier, the rebuild and the tests.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from tables.engine.game import Event, replay
from tables.games import binding_for
from tables.models import Round, Table, TableEvent
from tables.services.event_types import is_engine_event
from tables.services.snapshots import latest_stored_state

IN_PLAY = (Round.Status.OPEN, Round.Status.SETTLED)
_cache: dict[int, tuple[str, Snapshot]] = {}
_cache_lock = threading.Lock()


def initial_state(table: Table) -> Any:
    return binding_for(table.game).engine.new_state(table.settings)


def engine_events(table: Table, *, up_to_seq: int | None = None, after_seq: int = 0) -> list[Event]:
    rows = TableEvent.objects.filter(table=table).order_by("seq").values_list("type", "payload")
    if up_to_seq is not None:
        rows = rows.filter(seq__lte=up_to_seq)
    if after_seq:
        # A tail after a snapshot is short: one plain query, not a server-side cursor's
        # DECLARE, FETCH and CLOSE (three round trips, and WITH HOLD outside a transaction).
        rows = rows.filter(seq__gt=after_seq)
        return [Event(type=kind, data=data) for kind, data in rows if is_engine_event(kind)]
    return [Event(type=kind, data=data) for kind, data in rows.iterator() if is_engine_event(kind)]


def replay_table(table: Table, *, up_to_seq: int | None = None) -> Any:
    """The state replayed from seq 1: the reference every shortcut must equal."""
    engine = binding_for(table.game).engine
    return replay(engine, initial_state(table), engine_events(table, up_to_seq=up_to_seq))


def stored_state(table: Table, *, up_to_seq: int | None = None) -> tuple[Any, int]:
    """The state at `up_to_seq` (default: the head) from the latest snapshot before it and the
    engine events after that, and the seq the snapshot was taken at (0: none, from seq 1)."""
    engine = binding_for(table.game).engine
    stored = latest_stored_state(table, up_to_seq=up_to_seq)
    if stored is None:
        return replay_table(table, up_to_seq=up_to_seq), 0
    tail = engine_events(table, up_to_seq=up_to_seq, after_seq=stored.seq)
    return replay(engine, stored.state, tail), stored.seq


def current_round(table: Table) -> Round | None:
    """The round in play (open, or settled and not yet closed), if any."""
    in_play = Round.objects.filter(table=table, status__in=IN_PLAY).defer("state")
    return in_play.order_by("-number").first()


def latest_round(table: Table) -> Round | None:
    """The table's last round, in play or not: the one its engine state knows."""
    return Round.objects.filter(table=table).defer("state").order_by("-number").first()


@dataclass(frozen=True)
class Snapshot:
    """The engine state at the table's head and the round in play there; `stored_seq` is
    the seq of the latest stored snapshot that state comes from (0: none)."""

    state: Any
    round: Round | None
    stored_seq: int = 0


def snapshot(table: Table) -> Snapshot:
    """The caller holds the table lock when it will write."""
    with _cache_lock:
        cached = _cache.get(table.pk)
    if cached is not None and cached[0] == table.head_hash:
        return cached[1]
    state, stored_seq = stored_state(table)
    found = Snapshot(state, current_round(table), stored_seq)
    remember(table, found.state, found.round, stored_seq)
    return found


def current_state(table: Table) -> Any:
    return snapshot(table).state


def remember(table: Table, state: Any, round_: Round | None, stored_seq: int) -> None:
    """Keep what the head now is. Every write to a round row also moves the head, so the
    round kept here is exactly the row's state while the head hash matches."""
    in_play = round_ if round_ is not None and round_.status in IN_PLAY else None
    with _cache_lock:
        _cache[table.pk] = (table.head_hash, Snapshot(state, in_play, stored_seq))


def forget(table_id: int | None = None) -> None:
    with _cache_lock:
        if table_id is None:
            _cache.clear()
        else:
            _cache.pop(table_id, None)
