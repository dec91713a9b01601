"""Produce and store one report: build, render, and write one immutable row in one transaction.

A run for inputs already reported (the same watermark and the same provisional reasons) returns
the stored version instead of writing a duplicate, unless a reprint is asked for. The row is
written only once every rendering is ready, so a worker killed half-way leaves nothing behind.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from casino.db_router import replica_reads
from reports import kinds
from reports.builders.document import Document, ReportContext, content_hash
from reports.inputs.audit import AuditFindings
from reports.models import JobRun, Report
from reports.services import documents, renderings
from reports.shifts import ShiftKey, floor_clock
from tables.models import Table
from tables.services.custody.log import custody_events

FLOOR_SCOPE = "floor"


def produce_report(
    kind: str,
    key: ShiftKey,
    *,
    table: Table | None = None,
    reprint: bool = False,
    allow_provisional: bool = True,
    job_id: str | None = None,
    now: datetime | None = None,
    before_store: Callable[[], None] | None = None,
    table_report_ids: list[int] | None = None,
    audit_findings: AuditFindings | None = None,
) -> Report:
    """The stored report of ``kind`` for the shift (and table), made now if it is not stored
    for the same inputs already. ``before_store`` runs just before the row is written."""
    scope = str(table.pk) if table is not None else FLOOR_SCOPE
    latest = latest_report(kind, key, scope)
    version = latest.version + 1 if latest else 1
    context = documents.context_for(key, version=version, now=now or timezone.now())
    inputs = _Inputs(table_report_ids, audit_findings)
    document = _build(kind, key, table, context, allow_provisional, inputs)
    if latest is not None and not reprint and same_inputs(latest.document, document):
        return latest
    rendered = _render(document)
    if before_store is not None:
        before_store()
    return _store(kind, key, table, scope, document, rendered, job_id)


@dataclass(frozen=True)
class _Inputs:
    """Work a job's chord header already did: stored table reports, per-table audit findings."""

    table_report_ids: list[int] | None
    audit_findings: AuditFindings | None


def latest_report(kind: str, key: ShiftKey, scope: str) -> Report | None:
    return (
        Report.objects.filter(kind=kind, gaming_day=key.gaming_day, shift=key.shift, scope=scope)
        .order_by("-version")
        .first()
    )


# What a re-run changes by itself: the stored version's number and when it was made.
RUN_FIELDS = frozenset({"version", "reprint", "generated_at"})


def same_inputs(stored: dict[str, Any], fresh: dict[str, Any]) -> bool:
    """Whether `fresh` reports exactly what `stored` does: the same events covered (the
    watermark) and the same content. Anything else is a new version."""
    if any(stored[name] != fresh[name] for name in ("watermark", "provisional")):
        return False
    names = (set(stored) | set(fresh)) - RUN_FIELDS
    return all(stored.get(name) == fresh.get(name) for name in names)


def _build(
    kind: str,
    key: ShiftKey,
    table: Table | None,
    context: ReportContext,
    allow_provisional: bool,
    inputs: _Inputs,
) -> Document:
    request = kinds.BuildRequest(
        key, context, table, allow_provisional, inputs.table_report_ids, inputs.audit_findings
    )
    # Building only reads: from the replica when one is configured and caught up.
    with replica_reads():
        return kinds.kind_for(kind).build(request)


def day_table_reports(key: ShiftKey) -> None:
    """The report of every table that kept custody in an ended shift of the period's last day,
    made if missing, so that a period job queued beside the shift's own set misses nothing."""
    clock = floor_clock()
    now = timezone.now()
    for name in clock.shift_names():
        shift = ShiftKey(key.gaming_day, name)
        if clock.bounds(shift)[1] > now:
            continue
        for table in Table.objects.order_by("name"):
            if (
                custody_events(table, shift)
                and latest_report(Report.Kind.TABLE_SHIFT, shift, str(table.pk)) is None
            ):
                produce_report(Report.Kind.TABLE_SHIFT, shift, table=table)


def table_documents(key: ShiftKey, report_ids: list[int] | None) -> list[dict[str, Any]]:
    """The table reports a chord just stored, or else each table's report, made if missing."""
    if report_ids is not None:
        stored = Report.objects.filter(pk__in=report_ids, kind=Report.Kind.TABLE_SHIFT)
        return [report.document for report in stored.order_by("scope")]
    return [
        produce_report(Report.Kind.TABLE_SHIFT, key, table=table).document
        for table in Table.objects.order_by("name")
    ]


def _render(document: Document) -> dict[str, bytes]:
    return renderings.render_for_storing(document)


def _store(
    kind: str,
    key: ShiftKey,
    table: Table | None,
    scope: str,
    document: Document,
    rendered: dict[str, bytes],
    job_id: str | None,
) -> Report:
    digest = content_hash(document)
    assert digest == hashlib.sha256(rendered["json"]).hexdigest()
    try:
        with transaction.atomic():
            report = Report.objects.create(
                kind=kind,
                gaming_day=key.gaming_day,
                shift=key.shift,
                table=table,
                scope=scope,
                version=document["version"],
                reprint=document["reprint"],
                provisional=document["provisional"],
                watermark=document["watermark"],
                content_hash=digest,
                document=document,
                json_bytes=rendered["json"],
                csv_bytes=rendered["csv"],
                pdf_bytes=rendered["pdf"],
                job=JobRun.objects.filter(pk=job_id).first() if job_id else None,
            )
            renderings.store_renderings(report, rendered)
            return report
    except IntegrityError:
        # Another run stored this version first (a redelivered job racing its twin).
        stored = latest_report(kind, key, scope)
        assert stored is not None
        return stored
