"""The canonical JSON and the hash chain, without a database."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from types import MappingProxyType
from typing import Any

import pytest

from tables.log.chain import GENESIS_HASH, ChainedFact, canonical_json, chain_hash


def fact(**changes: Any) -> ChainedFact:
    base: dict[str, Any] = {
        "table_id": 1,
        "seq": 1,
        "round_number": None,
        "type": "table.created",
        "payload": {"b": 1, "a": [1, 2]},
        "schema_version": 1,
        "actor_id": None,
        "source": "system",
        "occurred_at": datetime(2026, 11, 30, 9, 0, tzinfo=UTC),
        "recorded_at": datetime(2026, 11, 30, 9, 0, 0, 123456, tzinfo=UTC),
        "idempotency_key": None,
    }
    base.update(changes)
    return ChainedFact(**base)


def test_canonical_json_sorts_keys_and_drops_spaces() -> None:
    assert canonical_json({"b": 1, "a": {"d": 2, "c": 3}}) == b'{"a":{"c":3,"d":2},"b":1}'


def test_decimals_are_strings_and_times_are_utc_with_z() -> None:
    madrid = timezone(timedelta(hours=1))
    moment = datetime(2026, 11, 30, 10, 0, tzinfo=madrid)
    assert canonical_json({"amount": Decimal("2.50"), "at": moment}) == (
        b'{"amount":"2.50","at":"2026-11-30T09:00:00.000000Z"}'
    )


def test_non_ascii_is_kept_as_utf8() -> None:
    assert canonical_json({"suit": "Bastos ñ"}) == '{"suit":"Bastos ñ"}'.encode()


def test_floats_and_naive_times_are_refused() -> None:
    with pytest.raises(TypeError, match="float"):
        canonical_json({"amount": 1.5})
    with pytest.raises(ValueError, match="naive"):
        canonical_json({"at": datetime(2026, 1, 1)})


class Amount(float):
    """A float by another name, as a numeric library's scalar would be."""


def test_floats_are_refused_wherever_they_hide() -> None:
    for value in (
        {"a": [1, ("x", {"b": 1.5})]},
        {"a": MappingProxyType({"b": [2.0]})},
        {"a": Amount(3)},
        {"a": OrderedDict(b=(1, 0.5))},
    ):
        with pytest.raises(TypeError, match="float"):
            canonical_json(value)


def test_hash_is_sha256_of_prev_hash_and_canonical_event() -> None:
    one = fact()
    expected = hashlib.sha256(GENESIS_HASH.encode() + one.canonical()).hexdigest()
    assert chain_hash(GENESIS_HASH, one) == expected


def test_any_change_to_a_field_changes_the_hash() -> None:
    original = chain_hash(GENESIS_HASH, fact())
    for change in (
        {"seq": 2},
        {"type": "table.opened"},
        {"payload": {"b": 2, "a": [1, 2]}},
        {"actor_id": 7},
        {"source": "shoe"},
        {"idempotency_key": "k"},
        {"recorded_at": datetime(2026, 11, 30, 9, 0, 0, 123457, tzinfo=UTC)},
    ):
        assert chain_hash(GENESIS_HASH, fact(**change)) != original, change
    assert chain_hash("1" * 64, fact()) != original
