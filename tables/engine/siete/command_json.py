"""Build a command from a JSON body, e.g. `command_from_json("stand", {"box": 3})`.

Only the shape is checked here (names, types, required fields); the rules, card codes and
amounts are checked by decide, so every refusal carries the same codes whichever way it came.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from tables.engine.errors import InvalidInputError
from tables.engine.siete.commands import COMMAND_TYPES, Command


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_CHECKS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "int": (_is_int, "a whole number"),
    "int | None": (lambda v: v is None or _is_int(v), "a whole number or null"),
    "str": (lambda v: isinstance(v, str), "a text"),
    "str | None": (lambda v: v is None or isinstance(v, str), "a text or null"),
    "bool": (lambda v: isinstance(v, bool), "true or false"),
    "bool | None": (lambda v: v is None or isinstance(v, bool), "true, false or null"),
    "Mapping[str, Any]": (lambda v: isinstance(v, Mapping), "an object"),
}


def command_from_json(command_type: str, data: Mapping[str, Any] | None) -> Command:
    """The command named `command_type` with the fields of `data`, or InvalidInputError."""
    cls = COMMAND_TYPES.get(command_type) if isinstance(command_type, str) else None
    if cls is None:
        known = ", ".join(sorted(COMMAND_TYPES))
        raise InvalidInputError(
            f"Unknown command {command_type!r}; one of: {known}.",
            code="unknown_command",
            params={"command": repr(command_type), "known": known},
        )
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise InvalidInputError("The command body must be a JSON object.", code="invalid_body")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise InvalidInputError(
            f"{command_type} has no field {unknown[0]!r}.",
            code="unknown_field",
            params={"command": command_type, "field": unknown[0]},
        )
    for name, field in fields.items():
        has_default = (
            field.default is not dataclasses.MISSING
            or field.default_factory is not dataclasses.MISSING
        )
        if name not in data:
            if not has_default:
                raise InvalidInputError(
                    f"{command_type} needs the field {name!r}.",
                    code="missing_field",
                    params={"command": command_type, "field": name},
                )
            continue
        check, expected = _CHECKS[str(field.type)]
        if not check(data[name]):
            raise InvalidInputError(
                f"{name} must be {expected}, not {data[name]!r}.",
                code="invalid_field",
                params={"field": name, "expected": expected, "value": repr(data[name])},
            )
    return cls(**data)
