"""What every report document shares: its header, canonical JSON and content hash.

A report document is a plain dict of JSON values. Canonical JSON is the one byte form used for
the content hash and the JSON rendering alike: sorted keys, no spaces, UTF-8, decimals as
strings, times as UTC ISO-8601 ending in ``Z``. Floats are refused, because money is exact.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

from reports.figures import quantise
from tables.engine.errors import InvalidInputError, NotAllowedNowError

Document = dict[str, Any]

REPORT_KINDS = (
    "table_shift",
    "floor_summary",
    "cashier",
    "audit",
    "gaming_day",
    "month_to_date",
    "year_to_date",
)


@dataclass(frozen=True)
class ReportContext:
    """When and for what a report is built; ``version`` 2 and up are reprints."""

    gaming_day: date
    shift: str
    generated_at: datetime
    shift_ends_at: datetime
    version: int = 1

    def __post_init__(self) -> None:
        for moment in (self.generated_at, self.shift_ends_at):
            if moment.tzinfo is None or moment.utcoffset() is None:
                raise InvalidInputError(
                    "Report times must carry a time zone; send them in UTC.",
                    code="naive_datetime",
                )
        if self.version < 1:
            raise InvalidInputError("A report version starts at 1.", code="invalid_version")

    @property
    def shift_ended(self) -> bool:
        return self.generated_at >= self.shift_ends_at


def report_header(
    kind: str,
    context: ReportContext,
    *,
    watermark: Mapping[str, int],
    provisional_reasons: Sequence[str],
    signatures: Sequence[tuple[str, str | None]],
    allow_provisional: bool,
    clock_reason: str = "shift_not_ended",
) -> Document:
    """The fields every report starts with; refuses a provisional report when asked to.
    ``clock_reason`` says why while the covered time has not ended (a shift, a period)."""
    clock = set() if context.shift_ended else {clock_reason}
    reasons = sorted(set(provisional_reasons) | clock)
    if reasons and not allow_provisional:
        raise NotAllowedNowError(
            "The shift is still open, so its final report cannot be made yet "
            f"({', '.join(reasons)}).",
            code="shift_still_open",
        )
    return {
        "kind": kind,
        "version": context.version,
        "reprint": context.version > 1,
        "provisional": bool(reasons),
        "provisional_reasons": reasons,
        "gaming_day": context.gaming_day,
        "shift": context.shift,
        "generated_at": context.generated_at,
        "shift_ends_at": context.shift_ends_at,
        "watermark": dict(sorted(watermark.items())),
        "signatures": [{"role": role, "name": name} for role, name in signatures],
    }


def json_ready(value: Any) -> Any:
    """The value as plain JSON types; exact numbers that are not integers become strings."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        raise TypeError("Report documents never hold floats; money is exact.")
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, Fraction):
        return str(quantise(value))
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat().replace("+00:00", "Z")
    if isinstance(value, date):
        return value.isoformat()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return json_ready(dataclasses.asdict(value))
    if isinstance(value, Mapping):
        return {str(key): json_ready(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [json_ready(item) for item in value]
    raise TypeError(f"{type(value).__name__} has no place in a report document.")


def canonical_json(document: Mapping[str, Any]) -> bytes:
    text = json.dumps(
        json_ready(document), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return text.encode("utf-8")


def content_hash(document: Mapping[str, Any]) -> str:
    """SHA-256 (hex) of the document's canonical JSON; stored beside the report."""
    return hashlib.sha256(canonical_json(document)).hexdigest()
