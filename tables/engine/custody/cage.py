"""The cage's own figures for a shift: its totals of fills issued and credits received.

The cashier report sets them against the slips. A first entry needs no reason; the cage can
correct a miscount only by entering the next version with a reason, and the report uses the
latest version and says which one it used.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tables.engine.custody.chips import verify_amount
from tables.engine.custody.slips import SlipType
from tables.engine.errors import InvalidInputError


@dataclass(frozen=True)
class CageTotals:
    fills_issued: int
    credits_received: int
    entered_by: str
    version: int = 1
    reason: str = ""

    def amount_of(self, slip_type: SlipType) -> int:
        return self.fills_issued if slip_type == "fill" else self.credits_received

    def as_amounts(self) -> Mapping[SlipType, int]:
        return {"fill": self.fills_issued, "credit": self.credits_received}


def next_cage_figures(
    previous: CageTotals | None,
    *,
    fills_issued: object,
    credits_received: object,
    entered_by: str,
    reason: str = "",
) -> CageTotals:
    """The figures to store: version 1, or the next version of ``previous`` with a reason."""
    fills = verify_amount(fills_issued, "The cage's total of fills issued", allow_zero=True)
    credits = verify_amount(
        credits_received, "The cage's total of credits received", allow_zero=True
    )
    if not isinstance(entered_by, str) or not entered_by.strip():
        raise InvalidInputError("The cashier's signature is required.", code="missing_signature")
    reason = reason.strip() if isinstance(reason, str) else ""
    if previous is not None and not reason:
        raise InvalidInputError(
            f"The cage's figures for this shift were already entered (version "
            f"{previous.version}); say why they are being corrected.",
            code="missing_reason",
        )
    return CageTotals(
        fills_issued=fills,
        credits_received=credits,
        entered_by=entered_by,
        version=previous.version + 1 if previous else 1,
        reason=reason,
    )
