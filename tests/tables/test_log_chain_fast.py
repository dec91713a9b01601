"""The formatted envelope (`ChainedFact.canonical`, `stored_chain_hash`) gives exactly the
bytes of the reference `canonical_json`, on many varied events."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from random import Random
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from tables.log.chain import (
    GENESIS_HASH,
    ChainedFact,
    canonical_json,
    canonical_time,
    chain_hash,
    stored_chain_hash,
)

# Text that JSON must escape, non-ASCII letters, a character outside the BMP, separators.
AWKWARD_TEXT = [
    "",
    "Bastos ñ",
    'quote " and \\ backslash',
    "tab\tnew\nline\r",
    "\x00\x01\x1f control",
    "\u2028\u2029 separators",
    "emoji 🂡 ace",
    "日本語",
    "/slash",
    "{not: json}",
]
ZONES = [
    UTC,
    timezone(timedelta(hours=1)),
    timezone(timedelta(hours=-5, minutes=-30)),
    ZoneInfo("Europe/Madrid"),
]


def random_text(rng: Random) -> str:
    if rng.random() < 0.5:
        return rng.choice(AWKWARD_TEXT)
    return "".join(
        chr(rng.choice([rng.randrange(32, 127), rng.randrange(0x80, 0x3000)]))
        for _ in range(rng.randrange(0, 12))
    )


def random_value(rng: Random, depth: int) -> Any:
    kinds = ["int", "bigint", "text", "none", "bool", "decimal", "time"]
    if depth < 4:
        kinds += ["dict", "list", "dict"]
    kind = rng.choice(kinds)
    if kind == "int":
        return rng.randrange(-1000, 1000)
    if kind == "bigint":
        return rng.choice([2**63, -(2**70), 10**30 + 7])
    if kind == "text":
        return random_text(rng)
    if kind == "none":
        return None
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "decimal":
        return rng.choice([Decimal("2.50"), Decimal("-0.001"), Decimal("1E+3"), Decimal("0")])
    if kind == "time":
        return random_time(rng)
    if kind == "list":
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(0, 5))]
    return {random_text(rng): random_value(rng, depth + 1) for _ in range(rng.randrange(0, 6))}


def random_time(rng: Random) -> datetime:
    moment = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(
        seconds=rng.randrange(-(10**9), 10**9),
        microseconds=rng.choice([0, 1, 999_999, rng.randrange(10**6)]),
    )
    return moment.astimezone(rng.choice(ZONES))


def random_fact(rng: Random) -> ChainedFact:
    return ChainedFact(
        table_id=rng.randrange(1, 10**6),
        seq=rng.randrange(1, 10**7),
        round_number=rng.choice([None, rng.randrange(1, 5000)]),
        type=rng.choice(["card.dealt", "custody.buy_in", "wager.placed", random_text(rng)]),
        payload={random_text(rng): random_value(rng, 1) for _ in range(rng.randrange(0, 8))},
        schema_version=rng.choice([0, 1, 2]),
        actor_id=rng.choice([None, rng.randrange(1, 10**5)]),
        source=rng.choice(["tablet", "shoe", "system", random_text(rng)]),
        occurred_at=random_time(rng),
        recorded_at=random_time(rng),
        idempotency_key=rng.choice(
            [None, random_text(rng), "00000000-0000-0000-0000-000000000000"]
        ),
    )


def reference_bytes(fact: ChainedFact, *, stored: bool = False) -> bytes:
    """The definition, spelled out here and not borrowed from the module under test."""
    return canonical_json(
        {
            "table": fact.table_id,
            "seq": fact.seq,
            "round": fact.round_number,
            "type": fact.type,
            "payload": fact.payload,
            "schema_version": fact.schema_version,
            "actor": fact.actor_id,
            "source": fact.source,
            "occurred_at": fact.occurred_at,
            "recorded_at": fact.recorded_at,
            "idempotency_key": fact.idempotency_key,
        },
        stored=stored,
    )


def read_back(fact: ChainedFact, prev_hash: str) -> str:
    """The verifier's path: payload through JSON, times as canonical text."""
    return stored_chain_hash(
        prev_hash,
        fact.table_id,
        fact.seq,
        fact.round_number,
        fact.type,
        json.loads(canonical_json(fact.payload)),
        fact.schema_version,
        fact.actor_id,
        fact.source,
        canonical_time(fact.occurred_at),
        canonical_time(fact.recorded_at),
        fact.idempotency_key,
    )


def test_many_varied_events_give_the_reference_bytes_and_hashes() -> None:
    rng = Random(20261130)
    prev = GENESIS_HASH
    for _ in range(3000):
        fact = random_fact(rng)
        expected = reference_bytes(fact)
        assert fact.canonical() == expected
        assert fact.canonical(stored=True) == expected
        digest = hashlib.sha256(prev.encode("ascii") + expected).hexdigest()
        assert chain_hash(prev, fact) == digest
        assert chain_hash(prev, fact, stored=True) == digest
        assert read_back(fact, prev) == digest
        prev = digest


def test_a_known_event_keeps_its_known_hash() -> None:
    """A hash written before the fast path existed: it must never change."""
    fact = ChainedFact(
        table_id=7, seq=42, round_number=3, type="card.dealt",
        payload={"card": "7o", "hand": "box", "box": 2, "source": "shoe", "note": "ñ", "x": None},
        schema_version=1, actor_id=None, source="shoe",
        occurred_at=datetime(2026, 1, 15, 9, 0, 0, 1, tzinfo=UTC),
        recorded_at=datetime(2026, 1, 15, 10, 0, tzinfo=timezone(timedelta(hours=1))),
        idempotency_key="k-1",
    )  # fmt: skip
    assert (
        fact.canonical()
        == (
            '{"actor":null,"idempotency_key":"k-1","occurred_at":"2026-01-15T09:00:00.000001Z",'
            '"payload":{"box":2,"card":"7o","hand":"box","note":"ñ","source":"shoe","x":null},'
            '"recorded_at":"2026-01-15T09:00:00.000000Z","round":3,"schema_version":1,"seq":42,'
            '"source":"shoe","table":7,"type":"card.dealt"}'
        ).encode()
    )
    assert (
        chain_hash(GENESIS_HASH, fact)
        == hashlib.sha256(GENESIS_HASH.encode() + reference_bytes(fact)).hexdigest()
    )


@pytest.mark.parametrize(
    "change",
    [
        {"actor_id": True},
        {"round_number": False},
        {"seq": Decimal("5")},
        {"idempotency_key": 12},
        {"source": Decimal("1.5")},
    ],
)
def test_unexpected_envelope_types_are_encoded_as_the_reference_does(
    change: dict[str, Any],
) -> None:
    fact = ChainedFact(**(vars(random_fact(Random(1))) | change))
    assert fact.canonical() == reference_bytes(fact)


def test_the_fast_path_refuses_what_the_reference_refuses() -> None:
    base = vars(random_fact(Random(2)))
    with pytest.raises(TypeError, match="float"):
        ChainedFact(**(base | {"payload": {"a": [1, {"b": 1.5}]}})).canonical()
    with pytest.raises(TypeError, match="float"):
        ChainedFact(**(base | {"seq": 1.0})).canonical()
    with pytest.raises(ValueError, match="naive"):
        ChainedFact(**(base | {"occurred_at": datetime(2026, 1, 1)})).canonical()
    with pytest.raises(TypeError, match="set"):
        ChainedFact(**(base | {"payload": {"a": {1, 2}}})).canonical()


def test_a_float_read_back_is_hashed_not_refused() -> None:
    """A float can only be in the log if someone put it there by hand: the verifier hashes
    it as the reference does (and the hash then tells the edit)."""
    fact = ChainedFact(**(vars(random_fact(Random(3))) | {"payload": {"amount": 2.5}}))
    assert fact.canonical(stored=True) == reference_bytes(fact, stored=True)
