"""The audit report: chain verification, replay, corrections and every exception of the shift."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from reports.builders.audit_inputs import (
    BankRuleViolation,
    CardAnomaly,
    ChainCheck,
    Correction,
    DeviceIncident,
    ManualEntry,
    PayoutMismatch,
    ReplayDifference,
)
from reports.builders.document import Document, ReportContext, json_ready, report_header
from reports.builders.inputs import Alert


def build_audit_report(
    *,
    context: ReportContext,
    chain: Sequence[ChainCheck],
    rounds_replayed: int,
    replay_differences: Sequence[ReplayDifference],
    corrections: Sequence[Correction],
    manual_entries: Sequence[ManualEntry],
    payout_mismatches: Sequence[PayoutMismatch],
    card_anomalies: Sequence[CardAnomaly],
    device_incidents: Sequence[DeviceIncident],
    bank_rule_violations: Sequence[BankRuleViolation],
    alerts: Sequence[Alert],
    auditor: str | None = None,
    allow_provisional: bool = True,
) -> Document:
    """The watermark is each table's verified chain head: the last event the audit covered."""
    header = report_header(
        "audit",
        context,
        watermark={check.table: check.head_seq for check in chain},
        provisional_reasons=(),
        signatures=(("auditor", auditor),),
        allow_provisional=allow_provisional,
    )
    sections = {
        "chain": [asdict(check) for check in sorted(chain, key=lambda check: check.table)],
        "replay": {
            "rounds_replayed": rounds_replayed,
            "differences": _rows(replay_differences, "table", "round_id", "field"),
        },
        "corrections": [_correction_row(row) for row in _sorted(corrections, "table", "at")],
        "manual_entries": [_manual_row(row) for row in _sorted(manual_entries, "table", "at")],
        "payout_mismatches": [
            _mismatch_row(row) for row in _sorted(payout_mismatches, "table", "round_id", "box")
        ],
        "card_anomalies": _rows(card_anomalies, "table", "at"),
        "device_incidents": _rows(device_incidents, "at", "device"),
        "bank_rule_violations": _rows(bank_rule_violations, "table", "at"),
        "alerts_by_kind": dict(sorted(Counter(alert.kind for alert in alerts).items())),
    }
    findings = _findings(sections)
    document = {**header, **sections, "findings": findings, "clean": not any(findings.values())}
    ready: Document = json_ready(document)
    return ready


def _findings(sections: dict[str, Any]) -> dict[str, int]:
    """What needs the auditor's attention; corrections with a proper approval are routine."""
    return {
        "chain_breaks": sum(1 for check in sections["chain"] if not check["verified"]),
        "replay_differences": len(sections["replay"]["differences"]),
        "self_approved_corrections": sum(
            1 for row in sections["corrections"] if row["self_approved"]
        ),
        "manual_entries_disagreeing": sum(
            1 for row in sections["manual_entries"] if row["status"] == "differs"
        ),
        "manual_entries_without_shoe_read": sum(
            1 for row in sections["manual_entries"] if row["status"] == "no_shoe_read"
        ),
        "payout_mismatches": sum(
            1 for row in sections["payout_mismatches"] if not row["corrected"]
        ),
        "card_anomalies": len(sections["card_anomalies"]),
        "device_incidents": len(sections["device_incidents"]),
        "bank_rule_violations": len(sections["bank_rule_violations"]),
    }


def _correction_row(correction: Correction) -> dict[str, Any]:
    return {
        **asdict(correction),
        "self_approved": correction.requested_by == correction.approved_by,
    }


def _manual_row(entry: ManualEntry) -> dict[str, Any]:
    if entry.shoe_card is None:
        status = "no_shoe_read"
    elif entry.shoe_card.upper() == entry.manual_card.upper():
        status = "agrees"
    else:
        status = "differs"
    return {**asdict(entry), "status": status}


def _mismatch_row(mismatch: PayoutMismatch) -> dict[str, Any]:
    difference = mismatch.paid - mismatch.computed
    return {
        **asdict(mismatch),
        "difference": difference,
        "direction": "overpaid" if difference > 0 else "underpaid",
    }


def _rows(records: Sequence[Any], *keys: str) -> list[dict[str, Any]]:
    return [asdict(record) for record in _sorted(records, *keys)]


def _sorted(records: Sequence[Any], *keys: str) -> list[Any]:
    return sorted(records, key=lambda record: tuple(_sortable(getattr(record, k)) for k in keys))


def _sortable(value: object) -> tuple[bool, str]:
    # None sorts first; every other key compares by its text so mixed records still order.
    return (value is not None, "" if value is None else _key_text(value))


def _key_text(value: object) -> str:
    if isinstance(value, int):
        return f"{value:020d}"
    text: str = json_ready(value)
    return text
