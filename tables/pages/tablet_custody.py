"""What waits for the dealer's own signature at his table: the pit boss's opening or closing
count, and the fill and credit slips the cage has signed.

Read-only: the tablet's Confirm buttons send the custody API's commands (the same services,
the policy's `custody.confirm` and `slip.confirm`), through the tablet's queue. Every read of
the custody books the tablet makes is here, so the books' home is one import away.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse

from reports.models import Slip
from reports.shifts import ShiftKey
from tables.engine.custody.codec import CLOSER, COUNTED, OPENER
from tables.models import Table
from tables.services.custody.log import latest_event, shift_ledger

COUNT_CONFIRM = "custody.confirm"
SLIP_CONFIRM = "slip.confirm"
# A count waits while no opener or closer follows it on the log (a recount replaces it).
COUNT_AND_SIGNED = (*COUNTED.values(), OPENER, CLOSER)
CLOSING_COUNT = COUNTED[True]
CAGE_SIGNED = (Slip.Stage.ISSUED, Slip.Stage.RECEIVED)


@dataclass(frozen=True)
class ChipLine:
    denomination: int
    chips: int  # how many chips of it
    amount: int


@dataclass(frozen=True)
class AwaitingSignature:
    """A count or a slip the dealer confirms with one tap."""

    kind: str  # "opener", "closer", "fill" or "credit"
    number: int | None  # a slip's number
    signed_by: str  # the pit boss who counted, or the cashier who signed the slip
    lines: tuple[ChipLine, ...]
    endpoint: str

    @property
    def total(self) -> int:
        return sum(line.amount for line in self.lines)


def awaiting_dealer(table: Table, may: frozenset[str] | set[str]) -> list[AwaitingSignature]:
    """What the caller, allowed `may` at `table` by the policy, is asked to confirm now."""
    waiting: list[AwaitingSignature] = []
    if COUNT_CONFIRM in may:
        count = _count_waiting(table)
        if count is not None:
            waiting.append(count)
    if SLIP_CONFIRM in may:
        waiting.extend(_slips_waiting(table))
    return waiting


def _count_waiting(table: Table) -> AwaitingSignature | None:
    latest = latest_event(table, COUNT_AND_SIGNED)
    if latest is None or latest.type not in COUNTED.values():
        return None
    kind = "closer" if latest.type == CLOSING_COUNT else "opener"
    return AwaitingSignature(
        kind=kind,
        number=None,
        signed_by=str(latest.payload.get("pit_boss", "")),
        lines=_lines(latest.payload.get("chips") or {}),
        endpoint=reverse(f"custody-{kind}-confirm", args=[table.pk]),
    )


def _slips_waiting(table: Table) -> list[AwaitingSignature]:
    slips = list(
        Slip.objects.filter(table=table, stage__in=CAGE_SIGNED, voided=False).order_by("number")
    )
    ledgers: dict[ShiftKey, Any] = {}
    waiting = []
    for slip in slips:
        key = ShiftKey(slip.gaming_day, slip.shift)
        if key not in ledgers:
            ledgers[key] = shift_ledger(table, key)
        pending = ledgers[key].slips.pending_slip(slip.slip_type, slip.number)
        if pending is None or pending.cashier is None:
            continue
        waiting.append(
            AwaitingSignature(
                kind=slip.slip_type,
                number=slip.number,
                signed_by=pending.cashier,
                lines=_lines(pending.chips),
                endpoint=reverse("custody-slip-confirm", args=[slip.slip_type, slip.number]),
            )
        )
    return waiting


def _lines(chips: Any) -> tuple[ChipLine, ...]:
    """Chips of each denomination (as the books keep them) with their amount, largest first."""
    lines = []
    for key, count in chips.items():
        denomination = int(str(key))
        if int(count):
            lines.append(ChipLine(denomination, int(count), denomination * int(count)))
    return tuple(sorted(lines, key=lambda line: -line.denomination))
