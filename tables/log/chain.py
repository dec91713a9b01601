"""Canonical JSON and the SHA-256 hash chain of the table event log (docs/event-log.md).

Canonical form: keys sorted, no spaces, UTF-8, decimals as strings, times as UTC
ISO-8601 with microseconds and a trailing Z. Floats are refused: money is never a float,
and a float's text form is not stable enough to hash.

`canonical_json` is the reference. An event's envelope has fixed keys and scalar values, so
`ChainedFact.canonical` and the verifier's `stored_chain_hash` write it by formatting and
give only the payload to the JSON encoder (the one `json.dumps` uses, made once). The bytes
are those of `canonical_json`; a field of any type the formatting does not expect goes
through `canonical_json` itself (tests/tables/test_log_chain_fast.py compares the two).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from json.encoder import encode_basestring
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


# Types that hold no float, and the containers walked, known by their exact type before the
# general checks: an `isinstance` against `Mapping` asks the ABC machinery, about a third of
# this walk's cost on every fact and round projection under the floor's load.
_SCALARS = frozenset({str, int, bool, type(None), Decimal, datetime})
_SEQUENCES = frozenset({list, tuple})


def _refuse_floats(value: Any) -> None:
    kind = type(value)
    if kind in _SCALARS:
        return
    if kind is dict or (kind not in _SEQUENCES and isinstance(value, Mapping)):
        items: Any = value.values()
    elif kind in _SEQUENCES or isinstance(value, list | tuple):
        items = value
    elif isinstance(value, float):
        raise TypeError("floats cannot be written to the event log; use integers or Decimal")
    else:
        return
    for item in items:
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
        if not stored:
            _refuse_floats(self.payload)
        fast = _envelope(
            self.table_id,
            self.seq,
            self.round_number,
            self.type,
            self.payload,
            self.schema_version,
            self.actor_id,
            self.source,
            _time_text(self.occurred_at),
            _time_text(self.recorded_at),
            self.idempotency_key,
        )
        return fast if fast is not None else self.reference_canonical(stored=stored)

    def reference_canonical(self, *, stored: bool = False) -> bytes:
        """The envelope through `canonical_json`: what `canonical` always equals."""
        return canonical_json(_envelope_dict(
            self.table_id, self.seq, self.round_number, self.type, self.payload,
            self.schema_version, self.actor_id, self.source, self.occurred_at,
            self.recorded_at, self.idempotency_key,
        ), stored=stored)  # fmt: skip


def chain_hash(prev_hash: str, fact: ChainedFact, *, stored: bool = False) -> str:
    canonical = fact.canonical(stored=stored)
    return hashlib.sha256(prev_hash.encode("ascii") + canonical).hexdigest()


def stored_chain_hash(
    prev_hash: str,
    table_id: int,
    seq: int,
    round_number: int | None,
    event_type: str,
    payload: Any,
    schema_version: int,
    actor_id: int | None,
    source: str,
    occurred_at: str,
    recorded_at: str,
    idempotency_key: str | None,
) -> str:
    """`chain_hash(prev_hash, fact, stored=True)` of a row read back from the log whose times
    are already canonical text (`canonical_time`), as the verifier reads them."""
    fields = (
        table_id, seq, round_number, event_type, payload, schema_version, actor_id, source,
        occurred_at, recorded_at, idempotency_key,
    )  # fmt: skip
    canonical = _envelope(*fields)
    if canonical is None:
        canonical = canonical_json(_envelope_dict(*fields), stored=True)
    return hashlib.sha256(prev_hash.encode("ascii") + canonical).hexdigest()


def _envelope_dict(
    table_id: Any, seq: Any, round_number: Any, event_type: Any, payload: Any,
    schema_version: Any, actor_id: Any, source: Any, occurred_at: Any, recorded_at: Any,
    idempotency_key: Any,
) -> dict[str, Any]:  # fmt: skip
    return {
        "table": table_id,
        "seq": seq,
        "round": round_number,
        "type": event_type,
        "payload": payload,
        "schema_version": schema_version,
        "actor": actor_id,
        "source": source,
        "occurred_at": occurred_at,
        "recorded_at": recorded_at,
        "idempotency_key": idempotency_key,
    }


def _time_text(moment: Any) -> Any:
    """An aware datetime's canonical text; anything else unchanged, for `_envelope` to
    decline and the reference to encode or refuse."""
    if isinstance(moment, datetime) and moment.tzinfo is not None:
        return canonical_time(moment)
    return moment


def _envelope(
    table_id: Any, seq: Any, round_number: Any, event_type: Any, payload: Any,
    schema_version: Any, actor_id: Any, source: Any, occurred_at: Any, recorded_at: Any,
    idempotency_key: Any,
) -> bytes | None:  # fmt: skip
    """The canonical bytes, the envelope formatted with its keys in sorted order; None when a
    field is not exactly an int, str or None where the envelope expects one. (A bool is an
    int to Python but `true` to JSON, hence the exact type checks.)"""
    if not (
        type(table_id) is int
        and type(seq) is int
        and type(schema_version) is int
        and (round_number is None or type(round_number) is int)
        and (actor_id is None or type(actor_id) is int)
        and type(event_type) is str
        and type(source) is str
        and type(occurred_at) is str
        and type(recorded_at) is str
        and (idempotency_key is None or type(idempotency_key) is str)
    ):
        return None
    actor = "null" if actor_id is None else actor_id
    key = "null" if idempotency_key is None else encode_basestring(idempotency_key)
    round_ = "null" if round_number is None else round_number
    text = (
        f'{{"actor":{actor},"idempotency_key":{key},'
        f'"occurred_at":{encode_basestring(occurred_at)},'
        f'"payload":{"".join(_PAYLOAD_CHUNKS(payload, 0))},'
        f'"recorded_at":{encode_basestring(recorded_at)},"round":{round_},'
        f'"schema_version":{schema_version},"seq":{seq},'
        f'"source":{encode_basestring(source)},"table":{table_id},'
        f'"type":{encode_basestring(event_type)}}}'
    )
    return text.encode("utf-8")


def _payload_encoder() -> Any:
    """What `json.dumps` builds for `canonical_json` on every call, built once. Without the
    circular-reference check: a payload is a tree (a cycle still fails, on recursion)."""
    make_encoder = getattr(json.encoder, "c_make_encoder", None)
    if make_encoder is None:  # a Python built without the C accelerator
        encoder = json.JSONEncoder(
            sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_encode
        )
        return encoder.iterencode
    return make_encoder(None, _encode, encode_basestring, None, ":", ",", True, False, True)


_PAYLOAD_CHUNKS = _payload_encoder()
