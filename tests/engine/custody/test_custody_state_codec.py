"""A shift's custody state survives its stored form exactly: what a checkpoint keeps of the
custody fold decodes to the state the fold made, read-only chip counts included."""

from __future__ import annotations

import json
from types import MappingProxyType

from tables.engine.custody.state import (
    BuyIn,
    Closer,
    CustodyFact,
    Opener,
    fold_all,
    new_state,
)
from tables.engine.custody.state_codec import CUSTODY_STATE_CODEC


def test_a_custody_state_comes_back_equal_through_json() -> None:
    facts: list[CustodyFact] = [
        Opener({5: 10, 25: 4}, dealer="dora", pit_boss="paula"),
        BuyIn(200),
        Closer({5: 12, 25: 8}, dealer="dora", pit_boss="paula"),
    ]
    state = fold_all(new_state("SyM-1", (5, 25, 100)), facts)
    stored = json.loads(json.dumps(CUSTODY_STATE_CODEC.encode(state)))
    decoded = CUSTODY_STATE_CODEC.decode(stored)
    assert decoded == state
    assert decoded.opener is not None
    assert isinstance(decoded.opener.chips, MappingProxyType)
    assert CUSTODY_STATE_CODEC.encode(decoded) == stored
