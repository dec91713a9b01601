"""Build a command from a JSON body, for every game: one parser over each game's declaration.

A game declares its commands as frozen dataclasses (a :class:`CommandShape` per command name:
the class, and any field the name itself fixes, as Stud's betting actions fix their `kind`).
Only the shape is checked here (names, types, required fields, and the choices or non-emptiness
a field's metadata declares); the rules, card codes and amounts are checked by decide. So the
same bad input gets the same code at every game, and the API's schema reflects the same
declaration (:func:`field_specs`).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from tables.engine.errors import InvalidInputError

# Field metadata a command class may declare: the only values a text field takes, and a text
# (or list) that must not be empty.
ONE_OF = "one_of"
NOT_EMPTY = "not_empty"


@dataclass(frozen=True)
class CommandShape:
    """One command as a game declares it: its class and the fields its name fixes."""

    cls: type
    preset: Mapping[str, Any] = field(default_factory=dict)

    def body(self) -> tuple[FieldSpec, ...]:
        """The fields a JSON body carries (those the name does not fix), in declaration order."""
        return tuple(spec for spec in field_specs(self.cls) if spec.name not in self.preset)


@dataclass(frozen=True)
class FieldSpec:
    """One field of a command's body. `base` is int, str, bool, Mapping or tuple; a tuple's
    items are `item` (str, int, or a nested command-like dataclass)."""

    name: str
    base: Any
    item: Any = None
    required: bool = True
    nullable: bool = False
    one_of: tuple[str, ...] = ()
    not_empty: bool = False


@cache
def field_specs(cls: type) -> tuple[FieldSpec, ...]:
    hints = typing.get_type_hints(cls)
    specs = []
    for declared in dataclasses.fields(cls):
        annotation = hints[declared.name]
        args = typing.get_args(annotation)
        nullable = typing.get_origin(annotation) in (typing.Union, types.UnionType)
        if nullable:
            annotation = next(arg for arg in args if arg is not type(None))
        origin = typing.get_origin(annotation) or annotation
        base, item = annotation, None
        if origin is tuple:
            base, item = tuple, typing.get_args(annotation)[0]
        elif origin is Mapping or origin is dict:
            base = Mapping
        specs.append(
            FieldSpec(
                name=declared.name,
                base=base,
                item=item,
                required=declared.default is dataclasses.MISSING
                and declared.default_factory is dataclasses.MISSING,
                nullable=nullable,
                one_of=tuple(declared.metadata.get(ONE_OF, ())),
                not_empty=bool(declared.metadata.get(NOT_EMPTY, False)),
            )
        )
    return tuple(specs)


def command_from_json(
    commands: Mapping[str, CommandShape], command_type: str, data: Mapping[str, Any] | None
) -> Any:
    """The command named `command_type` with the fields of `data`, or InvalidInputError."""
    shape = commands.get(command_type) if isinstance(command_type, str) else None
    if shape is None:
        known = ", ".join(sorted(commands))
        raise InvalidInputError(
            f"Unknown command {command_type!r}; one of: {known}.",
            code="unknown_command",
            params={"command": repr(command_type), "known": known},
        )
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise InvalidInputError("The command body must be a JSON object.", code="invalid_body")
    return _build(command_type, shape.cls, shape.body(), data, dict(shape.preset), "")


def _build(
    command_type: str,
    cls: type,
    specs: tuple[FieldSpec, ...],
    data: Mapping[str, Any],
    values: dict[str, Any],
    prefix: str,
) -> Any:
    names = {spec.name for spec in specs}
    unknown = sorted(str(name) for name in data if name not in names)
    if unknown:
        raise InvalidInputError(
            f"{command_type} has no field {prefix + unknown[0]!r}.",
            code="unknown_field",
            params={"command": command_type, "field": prefix + unknown[0]},
        )
    for spec in specs:
        if spec.name not in data:
            if spec.required:
                raise InvalidInputError(
                    f"{command_type} needs the field {prefix + spec.name!r}.",
                    code="missing_field",
                    params={"command": command_type, "field": prefix + spec.name},
                )
            continue
        values[spec.name] = _value(command_type, spec, data[spec.name], prefix + spec.name)
    return cls(**values)


_SCALARS: dict[Any, tuple[typing.Callable[[Any], bool], str]] = {
    int: (lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number"),
    str: (lambda v: isinstance(v, str), "a text"),
    bool: (lambda v: isinstance(v, bool), "true or false"),
    Mapping: (lambda v: isinstance(v, Mapping), "an object"),
}


def _value(command_type: str, spec: FieldSpec, value: Any, name: str) -> Any:
    if value is None and spec.nullable:
        return None
    if spec.base is tuple:
        if not isinstance(value, list | tuple):
            raise _invalid(name, "a list" + (" or null" if spec.nullable else ""), value)
        items = tuple(
            _item(command_type, spec.item, entry, f"{name}[{index}]")
            for index, entry in enumerate(value)
        )
        if spec.not_empty and not items:
            raise _invalid(name, "a list that is not empty", value)
        return items
    check, expected = _SCALARS[spec.base]
    if not check(value):
        raise _invalid(name, expected + (" or null" if spec.nullable else ""), value)
    if spec.one_of and value not in spec.one_of:
        raise _invalid(name, "one of " + ", ".join(spec.one_of), value)
    if spec.not_empty and not value.strip():
        raise _invalid(name, "a text that is not empty", value)
    return value


def _item(command_type: str, item: Any, entry: Any, name: str) -> Any:
    if dataclasses.is_dataclass(item) and isinstance(item, type):
        if not isinstance(entry, Mapping):
            raise _invalid(name, "an object", entry)
        return _build(command_type, item, field_specs(item), entry, {}, name + ".")
    check, expected = _SCALARS[item]
    if not check(entry):
        raise _invalid(name, expected, entry)
    return entry


def _invalid(name: str, expected: str, value: Any) -> InvalidInputError:
    return InvalidInputError(
        f"{name} must be {expected}, not {value!r}.",
        code="invalid_field",
        params={"field": name, "expected": expected, "value": repr(value)},
    )
