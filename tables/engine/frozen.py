"""Copying frozen engine values quickly.

`dataclasses.replace` re-runs `__init__` over every field; the engines copy their states on
every event, so replay and simulation spend most of their time there. No engine value
validates in `__init__`, so copying the instance dictionary is equivalent and several
times faster.
"""

from __future__ import annotations

from typing import Any, TypeVar

Frozen = TypeVar("Frozen")

# Answers worked out from a frozen value are kept on it under this key (see `memo`); a changed
# copy must work them out again, so `changed` never carries them over.
MEMO = "_memo"


def changed(value: Frozen, **changes: Any) -> Frozen:
    """A copy of a frozen dataclass instance with some fields changed."""
    copy = object.__new__(type(value))
    copy.__dict__.update(value.__dict__)
    copy.__dict__.pop(MEMO, None)
    copy.__dict__.update(changes)
    return copy


def memo(value: object) -> dict[str, Any]:
    """A frozen value's own cache of answers derived from it (never part of its equality)."""
    found: dict[str, Any] | None = value.__dict__.get(MEMO)
    if found is None:
        found = value.__dict__[MEMO] = {}
    return found
