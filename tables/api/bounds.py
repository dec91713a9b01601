"""Bounds every API input shares: ids and amounts inside the database's 64-bit integers, text
without control characters, JSON of a sane depth. A value outside them is a 400 naming the
field, never a 500."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.request import Request

MAX_ID = 2**63 - 1
MAX_JSON_DEPTH = 8
# Tab, newline and carriage return are ordinary in a note; every other control character
# (NUL above all, which PostgreSQL refuses in text) is not.
ALLOWED_CONTROLS = frozenset("\t\n\r")


def query_id(request: Request, name: str) -> int | None:
    """An optional whole-number id from the query string."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    if not raw.isdigit() or not 0 < int(raw) <= MAX_ID:
        raise ValidationError({name: [f"{name} must be a whole number from 1 to {MAX_ID}."]})
    return int(raw)


def bad_text(value: str) -> bool:
    return any((ord(c) < 32 and c not in ALLOWED_CONTROLS) or 0x7F <= ord(c) < 0xA0 for c in value)


def first_problem(value: Any, path: str = "", depth: int = 0) -> tuple[str, str] | None:
    """The first field of a JSON body that is nested too deep, holds control characters or a
    whole number past 64 bits; (field, sentence), or None."""
    if depth > MAX_JSON_DEPTH:
        return path or "body", f"is nested more than {MAX_JSON_DEPTH} levels deep."
    if isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            if isinstance(key, str) and bad_text(key):
                return where, "has a name with control characters."
            found = first_problem(item, where, depth + 1)
            if found:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = first_problem(item, f"{path}[{index}]" if path else f"[{index}]", depth + 1)
            if found:
                return found
    elif isinstance(value, str) and bad_text(value):
        return path or "body", "must not contain control characters."
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_ID:
        return path or "body", f"must be a whole number between -{MAX_ID} and {MAX_ID}."
    return None
