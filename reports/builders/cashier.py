"""The cashier (cage) report: fills and credits by table and denomination, the integrity of the
slip series (with the slips still outstanding), totals, and over/short against the cage's own
figures."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reports.builders.document import Document, ReportContext, json_ready, report_header
from tables.engine.custody import (
    SLIP_TYPES,
    Credit,
    CustodyState,
    Fill,
    PendingSlip,
    SlipType,
    SlipVoided,
    chips_total,
)
from tables.engine.custody.cage import CageTotals

USED, VOID = "used", "void"
# The watermark entry that moves when the cage enters or corrects its figures.
CAGE_FIGURES_MARK = "cage_figures"


@dataclass(frozen=True)
class SlipSequence:
    """Where every number of one slip series went. ``outstanding`` were requested and are
    neither confirmed nor void; ``missing`` are the numbers between the first and the last issued
    (or, with nothing issued, seen) that no slip accounts for; ``duplicates`` appear on more than
    one slip."""

    issued: tuple[int, ...]
    used: tuple[int, ...]
    voided: tuple[int, ...]
    outstanding: tuple[int, ...]
    missing: tuple[int, ...]
    not_issued: tuple[int, ...]
    duplicates: tuple[int, ...]

    @property
    def intact(self) -> bool:
        return not (self.outstanding or self.missing or self.not_issued or self.duplicates)


def slip_sequence(
    issued: Iterable[int],
    used: Iterable[int],
    voided: Iterable[int],
    outstanding: Iterable[int] = (),
) -> SlipSequence:
    """Check one continuous series. ``issued`` are the numbers the series gave out (at the
    pit's request); ``used`` the confirmed live slips (a number once per slip)."""
    issued_set, used_list, voided_list = set(issued), list(used), list(voided)
    outstanding_list = list(outstanding)
    seen = Counter(used_list) + Counter(voided_list) + Counter(outstanding_list)
    accounted = set(seen)
    # The series runs from the first to the last number issued; a stray number outside it is
    # reported as not issued, and must not stretch the series into thousands of false gaps.
    bounds = issued_set or accounted
    span = range(min(bounds), max(bounds) + 1) if bounds else range(0)
    return SlipSequence(
        issued=tuple(sorted(issued_set)),
        used=tuple(sorted(set(used_list))),
        voided=tuple(sorted(set(voided_list))),
        outstanding=tuple(sorted(set(outstanding_list))),
        missing=tuple(number for number in span if number not in accounted),
        not_issued=tuple(sorted(accounted - issued_set)),
        duplicates=tuple(sorted(number for number, times in seen.items() if times > 1)),
    )


def build_cashier_report(
    *,
    context: ReportContext,
    ledgers: Sequence[CustodyState],
    issued: Mapping[SlipType, Iterable[int]],
    cage_figures: CageTotals | None,
    watermark: Mapping[str, int],
    cage_voids: Sequence[SlipVoided] = (),
    cashier: str | None = None,
    cage_supervisor: str | None = None,
    allow_provisional: bool = True,
) -> Document:
    """``cage_voids`` are blank slips voided at the cage that never reached a table;
    ``cage_figures`` are the cage's own totals (None: not entered yet)."""
    if cage_figures is not None:
        watermark = {**watermark, CAGE_FIGURES_MARK: cage_figures.version}
    header = report_header(
        "cashier",
        context,
        watermark=watermark,
        provisional_reasons=[
            f"table_open:{ledger.table}"
            for ledger in ledgers
            if ledger.opener is not None and ledger.closer is None
        ],
        signatures=_signatures(ledgers, cage_figures, cashier, cage_supervisor),
        allow_provisional=allow_provisional,
    )
    slips: dict[str, list[dict[str, Any]]] = {
        kind: _slip_rows(ledgers, kind, cage_voids) for kind in SLIP_TYPES
    }
    totals: dict[str, Any] = {kind: _type_totals(slips[kind]) for kind in SLIP_TYPES}
    document = {
        **header,
        "slips": slips,
        "by_table_and_denomination": _by_table_and_denomination(slips),
        "totals": totals | {"net_to_tables": totals["fill"]["amount"] - totals["credit"]["amount"]},
        "sequence": {
            kind: _sequence_section(issued.get(kind, ()), slips[kind]) for kind in SLIP_TYPES
        },
        "cage_figures": _cage_figures_section(cage_figures),
        "over_short": {
            kind: _over_short(cage_figures.amount_of(kind) if cage_figures else None, slips[kind])
            for kind in SLIP_TYPES
        },
    }
    ready: Document = json_ready(document)
    return ready


def _signatures(
    ledgers: Sequence[CustodyState],
    cage_figures: CageTotals | None,
    cashier: str | None,
    cage_supervisor: str | None,
) -> tuple[tuple[str, str | None], ...]:
    """Who signs: the cashier who entered the cage's figures (else the one on most slips),
    and a cage supervisor when the floor names one, else the pit boss who asked for most slips."""
    slips: list[Fill | Credit | PendingSlip] = []
    for ledger in ledgers:
        slips += [*ledger.fills, *ledger.credits, *ledger.pending]
    entered_by = cage_figures.entered_by if cage_figures else None
    cashier = cashier or entered_by or most_common(_cashier_of(slip) for slip in slips)
    if cage_supervisor:
        return (("cashier", cashier), ("cage_supervisor", cage_supervisor))
    return (("cashier", cashier), ("pit_boss", most_common(slip.requested_by for slip in slips)))


def _cashier_of(slip: Fill | Credit | PendingSlip) -> str | None:
    if isinstance(slip, Fill):
        return slip.issued_by
    if isinstance(slip, Credit):
        return slip.received_by
    return slip.cashier


def most_common(names: Iterable[str | None]) -> str | None:
    """The name that occurs most often (the first in alphabetical order on a tie)."""
    counts = Counter(name for name in names if name)
    if not counts:
        return None
    return min(counts, key=lambda name: (-counts[name], name))


def _slip_rows(
    ledgers: Sequence[CustodyState], kind: SlipType, cage_voids: Sequence[SlipVoided]
) -> list[dict[str, Any]]:
    rows = []
    for ledger in ledgers:
        for slip in ledger.fills if kind == "fill" else ledger.credits:
            rows.append(_slip_row(ledger, kind, slip))
        for pending in ledger.pending:
            if pending.slip_type == kind:
                rows.append(_pending_row(ledger, pending))
    for void in cage_voids:
        if void.slip_type == kind:
            rows.append(_blank_void_row(void))
    return sorted(rows, key=lambda row: (row["slip_number"], row["table"] or ""))


def _slip_row(ledger: CustodyState, kind: SlipType, slip: Fill | Credit) -> dict[str, Any]:
    void = ledger.void_of(kind, slip.slip_number)
    return {
        "slip_number": slip.slip_number,
        "table": ledger.table,
        "status": VOID if void else USED,
        "stage": "confirmed",
        "chips": {str(value): count for value, count in sorted(slip.chips.items())},
        "total": chips_total(slip.chips),
        "requested_by": slip.requested_by,
        "cashier": slip.issued_by if isinstance(slip, Fill) else slip.received_by,
        "confirmed_by": slip.confirmed_by,
        "void_reason": void.reason if void else None,
        "void_approved_by": void.approved_by if void else None,
    }


def _pending_row(ledger: CustodyState, slip: PendingSlip) -> dict[str, Any]:
    """A slip that never reached the table's confirmation: outstanding (its status is the step
    it reached, ``requested``, ``issued`` or ``received``), or void at that step."""
    void = ledger.void_of(slip.slip_type, slip.slip_number)
    return {
        "slip_number": slip.slip_number,
        "table": ledger.table,
        "status": VOID if void else slip.stage,
        "stage": slip.stage,
        "chips": {str(value): count for value, count in sorted(slip.chips.items())},
        "total": slip.total,
        "requested_by": slip.requested_by,
        "cashier": slip.cashier,
        "confirmed_by": None,
        "void_reason": void.reason if void else None,
        "void_approved_by": void.approved_by if void else None,
    }


def _blank_void_row(void: SlipVoided) -> dict[str, Any]:
    return {
        "slip_number": void.slip_number,
        "table": None,
        "status": VOID,
        "stage": None,
        "chips": {},
        "total": 0,
        "requested_by": void.requested_by,
        "cashier": None,
        "confirmed_by": None,
        "void_reason": void.reason,
        "void_approved_by": void.approved_by,
    }


def _type_totals(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    live = [row for row in rows if row["status"] == USED]
    outstanding = _outstanding(rows)
    counts: Counter[int] = Counter()
    for row in live:
        counts.update({int(value): count for value, count in row["chips"].items()})
    return {
        "slips": len(live),
        "voided": sum(1 for row in rows if row["status"] == VOID),
        "amount": sum(row["total"] for row in live),
        "outstanding": {
            "slips": len(outstanding),
            "amount": sum(row["total"] for row in outstanding),
        },
        "by_denomination": {
            str(value): {"count": counts[value], "amount": value * counts[value]}
            for value in sorted(counts)
        },
    }


def _by_table_and_denomination(slips: Mapping[str, Sequence[Mapping[str, Any]]]) -> list[Any]:
    counts: Counter[tuple[str, str, int]] = Counter()
    for kind, rows in slips.items():
        for row in rows:
            if row["status"] == USED:
                for value, count in row["chips"].items():
                    counts[(kind, row["table"], int(value))] += count
    return [
        {
            "slip_type": kind,
            "table": table,
            "denomination": value,
            "count": count,
            "amount": value * count,
        }
        for (kind, table, value), count in sorted(counts.items())
    ]


def _sequence_section(issued: Iterable[int], rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    sequence = slip_sequence(
        issued,
        used=[row["slip_number"] for row in rows if row["status"] == USED],
        voided=[row["slip_number"] for row in rows if row["status"] == VOID],
        outstanding=[row["slip_number"] for row in _outstanding(rows)],
    )
    return {
        "issued": sequence.issued,
        "used": sequence.used,
        "voided": sequence.voided,
        "outstanding": sequence.outstanding,
        "missing": sequence.missing,
        "not_issued": sequence.not_issued,
        "duplicates": sequence.duplicates,
        "intact": sequence.intact,
    }


def _outstanding(rows: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [row for row in rows if row["status"] not in (USED, VOID)]


def _cage_figures_section(figures: CageTotals | None) -> dict[str, Any] | None:
    if figures is None:
        return None
    return {
        "fills_issued": figures.fills_issued,
        "credits_received": figures.credits_received,
        "entered_by": figures.entered_by,
        "version": figures.version,
        "reason": figures.reason or None,
    }


def _over_short(cage_amount: int | None, rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The cage's figure less the live slips the cage signed (issued or received, confirmed at
    the table or not): positive means the cage is over. Signed slips still waiting for the
    table's confirmation are shown apart, as they explain a difference with the tables."""
    signed = [
        row for row in rows if row["status"] != VOID and row["stage"] not in ("requested", None)
    ]
    computed = sum(row["total"] for row in signed)
    awaiting = sum(row["total"] for row in signed if row["stage"] != "confirmed")
    if cage_amount is None:
        difference, status = None, "not_entered"
    else:
        difference = cage_amount - computed
        status = "balanced" if difference == 0 else ("over" if difference > 0 else "short")
    return {
        "cage": cage_amount,
        "computed": computed,
        "awaiting_confirmation": awaiting,
        "difference": difference,
        "status": status,
    }
