"""Canonical JSON and the SHA-256 hash chain of the table event log (docs/event-log.md).

Canonical form: keys sorted, no spaces, UTF-8, decimals as strings, times as UTC
ISO-8601 with microseconds and a trailing Z. Floats are refused: money is never a float,
and a float's text form is not stable enough to hash.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

GENESIS_HASH = "0" * 64


def canonical_time(moment: datetime) -> str:
    if moment.tzinfo is None:
        raise ValueError("naive datetimes have no place in the log; give a UTC time")
    # isoformat is several times faster than strftime and gives the same text here.
    utc = moment.astimezone(UTC).replace(tzinfo=None)
    return utc.isoformat(timespec="microseconds") + "Z"


def _encode(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, datetime):
        return canonical_time(value)
    raise TypeError(f"{type(value).__name__} cannot be written to the event log")


def _refuse_floats(value: Any) -> None:
    if isinstance(value, float):
        raise TypeError("floats cannot be written to the event log; use integers or Decimal")
    if isinstance(value, Mapping):
        for item in value.values():
            _refuse_floats(item)
    elif isinstance(value, list | tuple):
        for item in value:
            _refuse_floats(item)


def json_ready(value: Any) -> Any:
    """The value as it reads back from JSON storage (tuples become lists, keys strings)."""
    return json.loads(canonical_json(value))


def canonical_json(value: Any, *, stored: bool = False) -> bytes:
    """`stored=True` skips the float check for a value read back from the log: it was
    checked when written, and any change since is caught by the hash, not here."""
    if not stored:
        _refuse_floats(value)
    text = json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_encode
    )
    return text.encode("utf-8")


@dataclass(frozen=True)
class ChainedFact:
    """Exactly the fields the hash covers; the row adds only its id."""

    table_id: int
    seq: int
    round_number: int | None
    type: str
    payload: Mapping[str, Any]
    schema_version: int
    actor_id: int | None
    source: str
    occurred_at: datetime
    recorded_at: datetime
    idempotency_key: str | None

    def canonical(self, *, stored: bool = False) -> bytes:
        return canonical_json(
            {
                "table": self.table_id,
                "seq": self.seq,
                "round": self.round_number,
                "type": self.type,
                "payload": self.payload,
                "schema_version": self.schema_version,
                "actor": self.actor_id,
                "source": self.source,
                "occurred_at": self.occurred_at,
                "recorded_at": self.recorded_at,
                "idempotency_key": self.idempotency_key,
            },
            stored=stored,
        )


def chain_hash(prev_hash: str, fact: ChainedFact, *, stored: bool = False) -> str:
    canonical = fact.canonical(stored=stored)
    return hashlib.sha256(prev_hash.encode("ascii") + canonical).hexdigest()
