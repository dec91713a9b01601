"""Build each report document for one gaming day and shift, from the log (no storage here)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User

from reports.builders.audit import build_audit_report
from reports.builders.cashier import build_cashier_report
from reports.builders.document import Document, ReportContext
from reports.builders.floor_summary import build_floor_summary
from reports.builders.period import build_period_report, period_first_day
from reports.builders.table_shift import build_table_shift_report, report_rows
from reports.inputs.audit import AuditFindings, audit_findings
from reports.inputs.house_edge import shift_house_edge
from reports.inputs.table_shift import table_shift_inputs
from reports.inputs.variance import table_shift_band
from reports.models import Report, Slip
from reports.shifts import ShiftKey, floor_clock
from tables import roles
from tables.models import Table
from tables.services.custody.cage import latest_cage_figures
from tables.services.custody.log import custody_events, ledger_from_events

# A period report is stored under its last gaming day with no shift.
PERIOD_SHIFT = ""


def context_for(key: ShiftKey, *, version: int, now: datetime) -> ReportContext:
    """A period report's key has no shift: it ends when the gaming day's last shift ends."""
    clock = floor_clock()
    if key.shift == PERIOD_SHIFT:
        ends_at = max(
            clock.bounds(ShiftKey(key.gaming_day, name))[1] for name in clock.shift_names()
        )
    else:
        _, ends_at = clock.bounds(key)
    return ReportContext(
        gaming_day=key.gaming_day,
        shift=key.shift,
        generated_at=now,
        shift_ends_at=ends_at,
        version=version,
    )


def table_shift_document(
    table: Table, key: ShiftKey, context: ReportContext, *, allow_provisional: bool = True
) -> Document:
    inputs = table_shift_inputs(table, key)
    return build_table_shift_report(
        context=context,
        table=inputs.table,
        ledger=inputs.ledger,
        rounds=inputs.rounds,
        house_edge=shift_house_edge(table, inputs.rounds, inputs.settled_seqs),
        band=table_shift_band(table, inputs.rounds, inputs.settled_seqs),
        alerts=inputs.alerts,
        watermark=inputs.watermark,
        previous_closer=inputs.previous_closer,
        report_rows=report_rows(table.game),
        allow_provisional=allow_provisional,
    )


def cashier_document(
    key: ShiftKey, context: ReportContext, *, allow_provisional: bool = True
) -> Document:
    ledgers, watermark = [], {}
    for table in Table.objects.order_by("name"):
        events = custody_events(table, key)
        if events:
            ledgers.append(ledger_from_events(table, events))
            watermark[table.name] = events[-1].seq
    slips = Slip.objects.filter(gaming_day=key.gaming_day, shift=key.shift)
    issued = {
        kind: list(slips.filter(slip_type=kind).values_list("number", flat=True))
        for kind in ("fill", "credit")
    }
    return build_cashier_report(
        context=context,
        ledgers=ledgers,
        issued=issued,  # type: ignore[arg-type]
        cage_figures=latest_cage_figures(key),
        watermark=watermark,
        allow_provisional=allow_provisional,
    )


def audit_document(
    key: ShiftKey,
    context: ReportContext,
    *,
    allow_provisional: bool = True,
    findings: AuditFindings | None = None,
) -> Document:
    found = findings if findings is not None else audit_findings(key)
    return build_audit_report(
        context=context,
        chain=found.chain,
        rounds_replayed=found.rounds_replayed,
        replay_differences=found.replay_differences,
        corrections=found.corrections,
        manual_entries=found.manual_entries,
        payout_mismatches=found.payout_mismatches,
        card_anomalies=found.card_anomalies,
        device_incidents=found.device_incidents,
        bank_rule_violations=found.bank_rule_violations,
        alerts=found.alerts,
        auditor=auditor_on_duty(),
        allow_provisional=allow_provisional,
    )


def period_document(
    kind: str, key: ShiftKey, context: ReportContext, *, allow_provisional: bool = True
) -> Document:
    """The period's stored table shift reports (the latest version of each table and shift)."""
    first_day = period_first_day(kind, key.gaming_day)
    stored = Report.objects.filter(
        kind=Report.Kind.TABLE_SHIFT, gaming_day__range=(first_day, key.gaming_day)
    ).order_by("scope", "gaming_day", "shift", "-version")
    latest: dict[tuple[str, str, str], dict[str, Any]] = {}
    for report in stored.only("scope", "gaming_day", "shift", "version", "document"):
        latest.setdefault((report.scope, str(report.gaming_day), report.shift), report.document)
    return build_period_report(
        kind=kind,
        context=context,
        table_reports=list(latest.values()),
        auditor=auditor_on_duty(),
        allow_provisional=allow_provisional,
    )


def auditor_on_duty() -> str | None:
    """The floor's auditor signs its audit report; with several, the first by name (the floor
    keeps no auditor roster by shift)."""
    auditor = (
        User.objects.filter(groups__name=roles.AUDITOR, is_active=True).order_by("username").first()
    )
    return auditor.get_username() if auditor is not None else None


def floor_summary_document(
    table_documents: Sequence[dict[str, Any]],
    context: ReportContext,
    *,
    allow_provisional: bool = True,
) -> Document:
    return build_floor_summary(
        context=context, table_reports=table_documents, allow_provisional=allow_provisional
    )
