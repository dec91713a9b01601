"""Stored engine snapshots: when one is taken, how it is written and how it is read back.

A snapshot is taken when a command opens a round, and at the latest every SNAPSHOT_EVERY
events, so the tail a read replays after it is short whatever the table's age. It is a row
written by the same statement as the command's events (see append_statements), and it is
read only where the log still holds its head hash.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import OuterRef, Subquery
from django.utils import timezone

from tables.engine.game import Event
from tables.games import GameBinding, binding_for
from tables.models import EngineSnapshot, Table, TableEvent

# Bounds the tail after a snapshot for tables whose rounds are long or that play none.
SNAPSHOT_EVERY = 100


@dataclass(frozen=True)
class StoredState:
    """An engine state decoded from a snapshot taken after the event `seq` (whose hash is
    `head_hash`)."""

    seq: int
    head_hash: str
    state: Any


def is_due(binding: GameBinding, since_seq: int, head_seq: int, events: Sequence[Event]) -> bool:
    """Whether the command whose `events` bring the head to `head_seq` stores a snapshot;
    `since_seq` is where the state it started from was last stored."""
    if binding.state_codec is None:
        return False
    if head_seq - since_seq >= SNAPSHOT_EVERY:
        return True
    return any(event.type == binding.round_opened_event for event in events)


def snapshot_row(table: Table, state: Any) -> EngineSnapshot:
    """The snapshot of `state` at the table's head, not yet written. Call after the events
    are chained (the head is theirs) and under the table lock."""
    codec = binding_for(table.game).state_codec
    assert codec is not None  # is_due said so
    return EngineSnapshot(
        table=table,
        seq=table.head_seq,
        head_hash=table.head_hash,
        codec_version=codec.version,
        state=codec.encode(state),
        taken_at=timezone.now(),
    )


def latest_stored_state(table: Table, *, up_to_seq: int | None = None) -> StoredState | None:
    """The latest snapshot at or before `up_to_seq` (the head) that this engine can decode
    and whose head hash is still the log's at its seq; None when there is none."""
    codec = binding_for(table.game).state_codec
    if codec is None:
        return None
    limit = table.head_seq if up_to_seq is None else up_to_seq
    while True:
        found = _latest_snapshot(table, limit, codec.version)
        if found is None:
            return None
        seq, head_hash, log_hash, state = found
        if head_hash == log_hash:
            return StoredState(seq=seq, head_hash=head_hash, state=codec.decode(state))
        limit = seq - 1  # the log no longer vouches for it: the verifier will say why


def _latest_snapshot(table: Table, up_to_seq: int, codec_version: str) -> Any:
    """(seq, head_hash, the log's hash at seq, state) of the latest snapshot, in one query.

    The log's hash is read for the one row returned (a subquery in the select list): the
    index on (table, seq) is walked backwards and stops there, whatever the table's age."""
    log_hash = TableEvent.objects.filter(table_id=OuterRef("table_id"), seq=OuterRef("seq"))
    return (
        EngineSnapshot.objects.filter(
            table_id=table.pk, seq__lte=up_to_seq, codec_version=codec_version
        )
        .annotate(log_hash=Subquery(log_hash.order_by().values("hash")[:1]))
        .order_by("-seq")
        .values_list("seq", "head_hash", "log_hash", "state")
        .first()
    )
