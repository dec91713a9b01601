"""Verified checkpoints: where a shift's audit starts instead of the table's first event.

A checkpoint is a head (seq and hash) that a verification walked to and found sound. The next
audit trusts the log up to it, provided the log still holds that hash at that seq. A checkpoint
keeps what the verifier had there (the engine state, by the engine's snapshot codec, and the
custody fold's states of the shifts open there, by the custody state codec): the next audit
starts from it and walks only the events after it. An older checkpoint has none, and the walk
starts from the latest stored snapshot at or before it (every snapshot it passes is compared
with the replay). `verify_log --full` trusts nothing and walks from seq 1.

The kept state is tied to the chain by a digest: SHA-256 over the checkpoint's seq, its head
hash (the log's hash at that seq, checked on read) and the state's canonical JSON. A state
edited in the database without its digest is refused, a problem at the checkpoint's seq,
and the walk falls back to the snapshot before it. Like the log's own hashes the digest has
no key: it finds a state altered alone, not one whose digest was forged with it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from django.db.models import OuterRef, Subquery
from django.utils import timezone

from tables import games
from tables.engine.custody.state_codec import CUSTODY_STATE_CODEC, OpenShifts
from tables.engine.state_codec import StateCodecError
from tables.log.chain import GENESIS_HASH, canonical_json
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
    # The custody fold's open shifts at `seq`, kept by a checkpoint; None: fold from the log.
    custody: OpenShifts | None = None
    # Why a checkpoint's kept state was not used (the walk then starts earlier).
    problems: tuple[str, ...] = field(default=())


def from_the_first_event(table: Table) -> StartingPoint:
    return StartingPoint(seq=0, head_hash=GENESIS_HASH, state=initial_state(table))


def last_checkpoint_seq(table: Table, *, up_to_seq: int | None = None) -> int | None:
    """The seq of the table's latest checkpoint at or before `up_to_seq` (default: the head)
    that the log still vouches for."""
    found = _last_checkpoint(table, up_to_seq=up_to_seq)
    return None if found is None else found[0]


def _last_checkpoint(table: Table, *, up_to_seq: int | None) -> tuple[Any, ...] | None:
    """(seq, head_hash, state, state_digest) of that checkpoint."""
    limit = table.head_seq if up_to_seq is None else min(up_to_seq, table.head_seq)
    log_hash = TableEvent.objects.filter(table_id=OuterRef("table_id"), seq=OuterRef("seq"))
    while True:
        found = (
            VerifiedCheckpoint.objects.filter(table_id=table.pk, seq__lte=limit)
            .annotate(log_hash=Subquery(log_hash.order_by().values("hash")[:1]))
            .order_by("-seq")
            .values_list("seq", "head_hash", "log_hash", "state", "state_digest")
            .first()
        )
        if found is None:
            return None
        seq, head_hash, chain_hash, state, digest = found
        if head_hash == chain_hash:
            return seq, head_hash, state, digest
        limit = seq - 1


def from_the_last_checkpoint(table: Table, *, up_to_seq: int | None = None) -> StartingPoint:
    """The last checkpoint (at or before `up_to_seq`) with the state it kept; without one
    (or with one refused), the latest snapshot at or before it; the first event without
    either."""
    found = _last_checkpoint(table, up_to_seq=up_to_seq)
    if found is None:
        return from_the_first_event(table)
    seq, head_hash, kept, digest = found
    problems: tuple[str, ...] = ()
    if kept is not None:
        if digest != state_digest(seq, head_hash, kept):
            problems = (
                f"table {table.name} seq {seq}: the checkpoint's kept state does not match "
                "its digest (altered); walked from the snapshot before it instead",
            )
        else:
            start = _from_kept_state(table, seq, head_hash, kept)
            if start is not None:
                return start
    stored = latest_stored_state(table, up_to_seq=seq)
    if stored is None:
        return StartingPoint(0, GENESIS_HASH, initial_state(table), problems=problems)
    return StartingPoint(stored.seq, stored.head_hash, stored.state, problems=problems)


def _from_kept_state(table: Table, seq: int, head_hash: str, kept: Any) -> StartingPoint | None:
    """The walk's start from a kept state; None when this engine's or the custody rules'
    codec has changed shape since (then it is not decoded, as an old snapshot is not)."""
    codec = games.binding_for(table.game).state_codec
    if codec is None or kept.get("engine_codec") != codec.version:
        return None
    if kept.get("custody_codec") != CUSTODY_STATE_CODEC.version:
        return None
    try:
        shifts = {
            (day, shift): (int(last_seq), CUSTODY_STATE_CODEC.decode(state))
            for day, shift, last_seq, state in kept["custody"]
        }
        custody = OpenShifts(int(kept["opener_seq"]), shifts)
        state = codec.decode(kept["engine"])
    except (StateCodecError, KeyError, TypeError, ValueError):
        return None
    return StartingPoint(seq=seq, head_hash=head_hash, state=state, custody=custody)


def kept_state(table: Table, state: Any, custody: OpenShifts) -> Any:
    """What a checkpoint keeps of the verifier at its seq: the engine state as snapshots
    store it, and the custody fold's open shifts; None for a game without a codec."""
    codec = games.binding_for(table.game).state_codec
    if codec is None:
        return None
    return {
        "engine_codec": codec.version,
        "engine": codec.encode(state),
        "custody_codec": CUSTODY_STATE_CODEC.version,
        "opener_seq": custody.opener_seq,
        "custody": [
            [day, shift, last_seq, CUSTODY_STATE_CODEC.encode(shift_state)]
            for (day, shift), (last_seq, shift_state) in sorted(custody.shifts.items())
        ],
    }


def state_digest(seq: int, head_hash: str, kept: Any) -> str:
    """The kept state's SHA-256, bound to the checkpoint's place in the chain."""
    document = {"seq": seq, "head_hash": head_hash, "state": kept}
    return hashlib.sha256(canonical_json(document, stored=True)).hexdigest()


def keep_checkpoint(table: Table, *, seq: int, verified_from_seq: int, kept: Any = None) -> None:
    """Record that a verification just found the log sound up to `seq` (an audit's shift
    end: the next shift's audit, and this one's reprint, start from there), with `kept`, what
    the verifier had there (`kept_state`). A checkpoint already there without a kept state
    gets this one."""
    if seq == 0:
        return  # an empty log: nothing to vouch for
    head_hash = TableEvent.objects.values_list("hash", flat=True).get(table=table, seq=seq)
    digest = "" if kept is None else state_digest(seq, head_hash, kept)
    checkpoint, created = VerifiedCheckpoint.objects.get_or_create(
        table=table,
        seq=seq,
        head_hash=head_hash,
        defaults={
            "verified_at": timezone.now(),
            "verified_from_seq": verified_from_seq,
            "state": kept,
            "state_digest": digest,
        },
    )
    if not created and checkpoint.state is None and kept is not None:
        checkpoint.state, checkpoint.state_digest = kept, digest
        checkpoint.save(update_fields=["state", "state_digest"])
