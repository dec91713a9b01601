"""Verified checkpoints: where a shift's audit starts instead of the table's first event.

A checkpoint is a head (seq and hash) that a verification walked to and found sound. The next
audit trusts the log up to it, provided the log still holds that hash at that seq, and walks
from the latest stored snapshot at or before it (the engine state it needs to replay the
rest; every snapshot it passes is compared with the replay). `verify_log --full` trusts
nothing and walks from seq 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import OuterRef, Subquery
from django.utils import timezone

from tables.log.chain import GENESIS_HASH
from tables.models import Table, TableEvent, VerifiedCheckpoint
from tables.services.engine_state import initial_state
from tables.services.snapshots import latest_stored_state


@dataclass(frozen=True)
class StartingPoint:
    """Where a verification walks from: the log after `seq`, chained to `head_hash`, with
    the engine in `state`."""

    seq: int
    head_hash: str
    state: Any


def from_the_first_event(table: Table) -> StartingPoint:
    return StartingPoint(seq=0, head_hash=GENESIS_HASH, state=initial_state(table))


def last_checkpoint_seq(table: Table, *, up_to_seq: int | None = None) -> int | None:
    """The seq of the table's latest checkpoint at or before `up_to_seq` (default: the head)
    that the log still vouches for."""
    limit = table.head_seq if up_to_seq is None else min(up_to_seq, table.head_seq)
    log_hash = TableEvent.objects.filter(table_id=OuterRef("table_id"), seq=OuterRef("seq"))
    while True:
        found = (
            VerifiedCheckpoint.objects.filter(table_id=table.pk, seq__lte=limit)
            .annotate(log_hash=Subquery(log_hash.order_by().values("hash")[:1]))
            .order_by("-seq")
            .values_list("seq", "head_hash", "log_hash")
            .first()
        )
        if found is None or found[1] == found[2]:
            return None if found is None else found[0]
        limit = found[0] - 1


def from_the_last_checkpoint(table: Table, *, up_to_seq: int | None = None) -> StartingPoint:
    """The latest snapshot at or before the last checkpoint (at or before `up_to_seq`); the
    first event without one."""
    checkpoint_seq = last_checkpoint_seq(table, up_to_seq=up_to_seq)
    if checkpoint_seq is None:
        return from_the_first_event(table)
    stored = latest_stored_state(table, up_to_seq=checkpoint_seq)
    if stored is None:
        return from_the_first_event(table)
    return StartingPoint(seq=stored.seq, head_hash=stored.head_hash, state=stored.state)


def keep_checkpoint(table: Table, *, seq: int, verified_from_seq: int) -> None:
    """Record that a verification just found the log sound up to `seq` (an audit's shift
    end: the next shift's audit, and this one's reprint, start from there)."""
    if seq == 0:
        return  # an empty log: nothing to vouch for
    head_hash = TableEvent.objects.values_list("hash", flat=True).get(table=table, seq=seq)
    VerifiedCheckpoint.objects.get_or_create(
        table=table,
        seq=seq,
        head_hash=head_hash,
        defaults={"verified_at": timezone.now(), "verified_from_seq": verified_from_seq},
    )
