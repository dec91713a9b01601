"""A canonical, versioned JSON encoding of an engine's frozen state, for stored snapshots.

A snapshot stands in for the replay of every event before it, so its decoding must give a
state equal to that replay, field for field and type for type: a tuple stays a tuple, a
Fraction a Fraction, a dictionary keeps its order. Every value that is not a JSON scalar or
a tuple becomes a tagged object (``{"@": tag, ...}``), so no plain object is ever ambiguous.

A codec knows the dataclasses it may meet. Its ``version`` joins the engine's own number to
a fingerprint of those classes' names and fields: when an engine's state changes shape, old
snapshots no longer match and are ignored (the state is then replayed from the log), rather
than decoded into the wrong fields.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Any

TAG = "@"


class StateCodecError(ValueError):
    """A value the codec cannot encode, or stored data that is not one of its encodings."""


@dataclass(frozen=True)
class StateCodec:
    """Encodes the states of one engine; `classes` are every dataclass a state may hold."""

    engine_version: int
    classes: tuple[type, ...]
    _by_name: Mapping[str, type] = field(init=False, repr=False, compare=False)
    _fields: Mapping[type, tuple[str, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_name = {cls.__name__: cls for cls in self.classes}
        if len(by_name) != len(self.classes):
            raise StateCodecError("Two state classes share a name.")
        layout = {cls: tuple(f.name for f in fields(cls)) for cls in self.classes}
        object.__setattr__(self, "_by_name", by_name)
        object.__setattr__(self, "_fields", layout)

    @property
    def version(self) -> str:
        """The engine's number and the classes' fingerprint, e.g. ``1-3f9a0c12``."""
        shape = ";".join(
            f"{cls.__name__}:{','.join(names)}" for cls, names in sorted(
                self._fields.items(), key=lambda item: item[0].__name__
            )
        )  # fmt: skip
        return f"{self.engine_version}-{hashlib.sha256(shape.encode()).hexdigest()[:12]}"

    def encode(self, state: Any) -> Any:
        return self._encode(state)

    def decode(self, data: Any) -> Any:
        return self._decode(data)

    def _encode(self, value: Any) -> Any:
        if value is None or isinstance(value, bool | int | str):
            return value
        if isinstance(value, tuple):
            return [self._encode(item) for item in value]
        names = self._fields.get(type(value))
        if names is not None:
            encoded = {name: self._encode(getattr(value, name)) for name in names}
            encoded[TAG] = type(value).__name__
            return encoded
        return self._encode_container(value)

    def _encode_container(self, value: Any) -> Any:
        if isinstance(value, list):
            return {TAG: "list", "items": [self._encode(item) for item in value]}
        if isinstance(value, frozenset | set):
            items = sorted((self._encode(item) for item in value), key=repr)
            return {TAG: "frozenset" if isinstance(value, frozenset) else "set", "items": items}
        if isinstance(value, dict | MappingProxyType):
            pairs = [[self._encode(key), self._encode(item)] for key, item in value.items()]
            # A read-only mapping (the custody rules' chip counts) comes back read-only.
            tag = "dict" if isinstance(value, dict) else "mapping"
            return {TAG: tag, "items": pairs}
        if isinstance(value, Fraction):
            return {TAG: "fraction", "value": str(value)}
        if isinstance(value, Decimal):
            return {TAG: "decimal", "value": str(value)}
        if is_dataclass(value):
            raise StateCodecError(f"{type(value).__name__} is not one of the codec's classes.")
        raise StateCodecError(f"A state may not hold a {type(value).__name__} ({value!r}).")

    def _decode(self, data: Any) -> Any:
        if isinstance(data, list):
            return tuple(self._decode(item) for item in data)
        if not isinstance(data, dict):
            return data
        tag = data.get(TAG)
        cls = self._by_name.get(tag) if isinstance(tag, str) else None
        if cls is not None:
            # As the engines copy their values (tables.engine.frozen): no __init__ re-run.
            instance: Any = object.__new__(cls)
            instance.__dict__.update((name, self._decode(data[name])) for name in self._fields[cls])
            return instance
        return self._decode_container(tag, data)

    def _decode_container(self, tag: Any, data: dict[str, Any]) -> Any:
        if tag == "list":
            return [self._decode(item) for item in data["items"]]
        if tag == "frozenset":
            return frozenset(self._decode(item) for item in data["items"])
        if tag == "set":
            return {self._decode(item) for item in data["items"]}
        if tag == "dict":
            return {self._decode(key): self._decode(item) for key, item in data["items"]}
        if tag == "mapping":
            return MappingProxyType(
                {self._decode(key): self._decode(item) for key, item in data["items"]}
            )
        if tag == "fraction":
            return Fraction(data["value"])
        if tag == "decimal":
            return Decimal(data["value"])
        raise StateCodecError(f"Stored state holds an unknown tag {tag!r}.")
