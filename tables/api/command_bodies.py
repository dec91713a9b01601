"""The fields each game command takes, as the API documents them: a body with a field the
command does not take (a `box` for `reveal_bank`) is a 400 naming the field."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError

_FIELDS: dict[tuple[str, str], frozenset[str]] = {}


def register_body(game: str, command_type: str, fields: frozenset[str]) -> None:
    _FIELDS[(game, command_type)] = fields


def check_fields(game: str, command_type: str, data: Any) -> None:
    taken = _FIELDS.get((game, command_type))
    if taken is None or not isinstance(data, dict):
        return
    extra = sorted(str(name) for name in data if name not in taken)
    if extra:
        field = extra[0]
        raise ValidationError({field: [f"{command_type} does not take the field {field}."]})
