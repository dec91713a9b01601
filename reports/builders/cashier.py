"""The cashier (cage) report: fills and credits by table and denomination, the integrity of the
slip series, totals, and over/short against the cage's own figures."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reports.builders.document import Document, ReportContext, json_ready, report_header
from reports.custody import (
    SLIP_TYPES,
    Credit,
    CustodyLedger,
    Fill,
    SlipType,
    SlipVoided,
    chips_total,
)


@dataclass(frozen=True)
class SlipSequence:
    """Where every number of one slip series went. ``missing`` are the numbers between the first
    and the last issued (or, with nothing issued, seen) that no slip or void accounts for;
    ``duplicates`` appear on more than one slip."""

    issued: tuple[int, ...]
    used: tuple[int, ...]
    voided: tuple[int, ...]
    missing: tuple[int, ...]
    not_issued: tuple[int, ...]
    duplicates: tuple[int, ...]

    @property
    def intact(self) -> bool:
        return not (self.missing or self.not_issued or self.duplicates)


def slip_sequence(
    issued: Iterable[int], used: Iterable[int], voided: Iterable[int]
) -> SlipSequence:
    """Check one continuous series: ``used`` lists the live slips (a number once per slip)."""
    issued_set, used_list, voided_list = set(issued), list(used), list(voided)
    seen = Counter(used_list) + Counter(voided_list)
    accounted = set(seen)
    # The series runs from the first to the last number issued; a stray number outside it is
    # reported as not issued, and must not stretch the series into thousands of false gaps.
    bounds = issued_set or accounted
    span = range(min(bounds), max(bounds) + 1) if bounds else range(0)
    return SlipSequence(
        issued=tuple(sorted(issued_set)),
        used=tuple(sorted(set(used_list))),
        voided=tuple(sorted(set(voided_list))),
        missing=tuple(number for number in span if number not in accounted),
        not_issued=tuple(sorted(accounted - issued_set)),
        duplicates=tuple(sorted(number for number, times in seen.items() if times > 1)),
    )


def build_cashier_report(
    *,
    context: ReportContext,
    ledgers: Sequence[CustodyLedger],
    issued: Mapping[SlipType, Iterable[int]],
    cage_figures: Mapping[SlipType, int] | None,
    watermark: Mapping[str, int],
    cage_voids: Sequence[SlipVoided] = (),
    cashier: str | None = None,
    cage_supervisor: str | None = None,
    allow_provisional: bool = True,
) -> Document:
    """``cage_voids`` are blank slips voided at the cage that never reached a table."""
    header = report_header(
        "cashier",
        context,
        watermark=watermark,
        provisional_reasons=[
            f"table_open:{ledger.table}"
            for ledger in ledgers
            if ledger.opener is not None and ledger.closer is None
        ],
        signatures=(("cashier", cashier), ("cage_supervisor", cage_supervisor)),
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
        "over_short": {
            kind: _over_short(cage_figures.get(kind) if cage_figures else None, totals[kind])
            for kind in SLIP_TYPES
        },
    }
    ready: Document = json_ready(document)
    return ready


def _slip_rows(
    ledgers: Sequence[CustodyLedger], kind: SlipType, cage_voids: Sequence[SlipVoided]
) -> list[dict[str, Any]]:
    rows = []
    for ledger in ledgers:
        for slip in ledger.fills if kind == "fill" else ledger.credits:
            rows.append(_slip_row(ledger, kind, slip))
    for void in cage_voids:
        if void.slip_type == kind:
            rows.append(_blank_void_row(void))
    return sorted(rows, key=lambda row: (row["slip_number"], row["table"] or ""))


def _slip_row(ledger: CustodyLedger, kind: SlipType, slip: Fill | Credit) -> dict[str, Any]:
    void = ledger.void_of(kind, slip.slip_number)
    return {
        "slip_number": slip.slip_number,
        "table": ledger.table,
        "status": "void" if void else "used",
        "chips": {str(value): count for value, count in sorted(slip.chips.items())},
        "total": chips_total(slip.chips),
        "requested_by": slip.requested_by,
        "cashier": slip.issued_by if isinstance(slip, Fill) else slip.received_by,
        "confirmed_by": slip.confirmed_by,
        "void_reason": void.reason if void else None,
        "void_approved_by": void.approved_by if void else None,
    }


def _blank_void_row(void: SlipVoided) -> dict[str, Any]:
    return {
        "slip_number": void.slip_number,
        "table": None,
        "status": "void",
        "chips": {},
        "total": 0,
        "requested_by": void.requested_by,
        "cashier": None,
        "confirmed_by": None,
        "void_reason": void.reason,
        "void_approved_by": void.approved_by,
    }


def _type_totals(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    live = [row for row in rows if row["status"] == "used"]
    counts: Counter[int] = Counter()
    for row in live:
        counts.update({int(value): count for value, count in row["chips"].items()})
    return {
        "slips": len(live),
        "voided": len(rows) - len(live),
        "amount": sum(row["total"] for row in live),
        "by_denomination": {
            str(value): {"count": counts[value], "amount": value * counts[value]}
            for value in sorted(counts)
        },
    }


def _by_table_and_denomination(slips: Mapping[str, Sequence[Mapping[str, Any]]]) -> list[Any]:
    counts: Counter[tuple[str, str, int]] = Counter()
    for kind, rows in slips.items():
        for row in rows:
            if row["status"] == "used":
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
        used=[row["slip_number"] for row in rows if row["status"] == "used"],
        voided=[row["slip_number"] for row in rows if row["status"] == "void"],
    )
    return {
        "issued": sequence.issued,
        "used": sequence.used,
        "voided": sequence.voided,
        "missing": sequence.missing,
        "not_issued": sequence.not_issued,
        "duplicates": sequence.duplicates,
        "intact": sequence.intact,
    }


def _over_short(cage_amount: int | None, totals: Mapping[str, Any]) -> dict[str, Any] | None:
    """Cage figure less the slips' total: positive means the cage is over."""
    if cage_amount is None:
        return None
    difference = cage_amount - totals["amount"]
    status = "balanced" if difference == 0 else ("over" if difference > 0 else "short")
    return {
        "cage": cage_amount,
        "computed": totals["amount"],
        "difference": difference,
        "status": status,
    }
