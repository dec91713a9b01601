"""The single append path of the event log: the next seq and the chained hash of each new row."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from tables.log.chain import ChainedFact, chain_hash, json_ready
from tables.models import Round, Table, TableEvent


@dataclass(frozen=True)
class NewFact:
    type: str
    payload: dict[str, Any]


def chain_facts(
    *,
    table: Table,
    round_: Round | None,
    facts: Sequence[NewFact],
    actor: User | None,
    source: str,
    occurred_at: datetime | None = None,
    idempotency_key: str | None = None,
) -> list[TableEvent]:
    """The rows that append `facts` to `table`'s log, chained to its head; not yet written.

    The caller holds the table row lock (select_for_update). The table's head (seq and hash)
    advances on the instance; :func:`~tables.services.append_statements.write_append` stores both.
    """
    recorded_at = timezone.now()
    occurred_at = occurred_at or recorded_at
    rows = []
    for fact in facts:
        # Store exactly what was hashed: the canonical form, read back.
        payload = json_ready(fact.payload)
        chained = ChainedFact(
            table_id=table.pk,
            seq=table.head_seq + 1,
            round_number=round_.number if round_ else None,
            type=fact.type,
            payload=payload,
            schema_version=1,
            actor_id=actor.pk if actor else None,
            source=source,
            occurred_at=occurred_at,
            recorded_at=recorded_at,
            idempotency_key=idempotency_key,
        )
        digest = chain_hash(table.head_hash, chained)
        rows.append(
            TableEvent(
                table=table,
                round=round_,
                seq=chained.seq,
                type=fact.type,
                payload=payload,
                actor=actor,
                source=source,
                occurred_at=occurred_at,
                recorded_at=recorded_at,
                idempotency_key=idempotency_key,
                prev_hash=table.head_hash,
                hash=digest,
            )
        )
        table.head_seq, table.head_hash = chained.seq, digest
    return rows
