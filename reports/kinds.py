"""The report kinds: each declared once, with how it is built, rendered, run and who sees it.

Storage (reports.services.storing), the jobs (reports.tasks), the renderers (reports.renderers)
and the API's access rules all look a kind up here. A new kind is one `register(ReportKind(...))`
call made when the app loads (see `register_builtin_kinds`, run from ReportsConfig.ready).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from reports.builders.document import Document, ReportContext
    from reports.inputs.audit import AuditFindings
    from reports.models import JobRun
    from reports.shifts import ShiftKey
    from tables.models import Table


@dataclass(frozen=True)
class BuildRequest:
    """What a kind's builder gets: the shift, the document's context, the table (a per-table
    kind), and the work a job's chord header already did."""

    key: ShiftKey
    context: ReportContext
    table: Table | None
    allow_provisional: bool
    table_report_ids: list[int] | None = None
    audit_findings: AuditFindings | None = None


@dataclass(frozen=True)
class RunRequest:
    """What a kind's job starter gets (reports.tasks.start_run)."""

    job: JobRun
    key: ShiftKey
    table_id: int | None
    table_ids: list[int]
    reprint: bool
    allow_provisional: bool


Row = dict[str, Any]


@dataclass(frozen=True)
class ReportKind:
    key: str
    title: str
    build: Callable[[BuildRequest], Document]
    pdf_sections: Callable[[Mapping[str, Any]], list[Any]]
    csv_columns: tuple[str, ...]
    csv_rows: Callable[[Mapping[str, Any]], Iterator[Row]]
    # Roles that see this kind (the auditor sees every kind).
    seen_by: frozenset[str] = frozenset()
    # A report of one table (its run names the table).
    per_table: bool = False
    # Queues the run's jobs; None: one job for the whole shift (reports.tasks).
    start: Callable[[RunRequest], None] | None = None
    # Whether its run reports progress table by table (a chord over the tables).
    by_table_progress: bool = False


_KINDS: dict[str, ReportKind] = {}


def register(kind: ReportKind) -> None:
    _KINDS[kind.key] = kind


def kind_for(key: str) -> ReportKind:
    try:
        return _KINDS[key]
    except KeyError:
        raise ValueError(f"unknown report kind {key!r}") from None


def keys() -> tuple[str, ...]:
    return tuple(_KINDS)


def registered() -> tuple[ReportKind, ...]:
    return tuple(_KINDS.values())


def register_builtin_kinds() -> None:
    """The table shift, floor summary, cashier and audit reports, and the period totals."""
    from reports import tasks
    from reports.builders.period import PERIOD_KINDS
    from reports.renderers import (
        csv_audit_rows,
        csv_period,
        csv_rows,
        pdf_audit,
        pdf_cashier,
        pdf_period,
        pdf_sections,
    )
    from reports.services import documents
    from reports.services.storing import day_table_reports, table_documents
    from tables import roles

    floor_staff = frozenset({roles.PIT_BOSS})

    def table_shift(request: BuildRequest) -> Document:
        assert request.table is not None
        return documents.table_shift_document(
            request.table, request.key, request.context, allow_provisional=request.allow_provisional
        )

    def floor_summary(request: BuildRequest) -> Document:
        return documents.floor_summary_document(
            table_documents(request.key, request.table_report_ids),
            request.context,
            allow_provisional=request.allow_provisional,
        )

    def cashier(request: BuildRequest) -> Document:
        return documents.cashier_document(
            request.key, request.context, allow_provisional=request.allow_provisional
        )

    def audit(request: BuildRequest) -> Document:
        return documents.audit_document(
            request.key,
            request.context,
            allow_provisional=request.allow_provisional,
            findings=request.audit_findings,
        )

    for kind in (
        ReportKind(
            "table_shift", "Table shift report", table_shift, pdf_sections.table_shift_sections,
            csv_rows.TABLE_SHIFT_COLUMNS, csv_rows.table_shift_rows, floor_staff,
            per_table=True, start=tasks.start_table_shift,
        ),
        ReportKind(
            "floor_summary", "Floor summary", floor_summary, pdf_sections.floor_summary_sections,
            csv_rows.FLOOR_COLUMNS, csv_rows.floor_rows, floor_staff,
            start=tasks.start_floor_summary, by_table_progress=True,
        ),
        ReportKind(
            "cashier", "Cashier (cage) report", cashier, pdf_cashier.cashier_sections,
            csv_rows.CASHIER_COLUMNS, csv_rows.cashier_rows, frozenset({roles.CASHIER}),
        ),
        ReportKind(
            "audit", "Audit report", audit, pdf_audit.audit_sections,
            csv_audit_rows.AUDIT_COLUMNS, csv_audit_rows.audit_rows,
            start=tasks.start_audit, by_table_progress=True,
        ),
    ):  # fmt: skip
        register(kind)

    def period_of(kind: str) -> Callable[[BuildRequest], Document]:
        def period(request: BuildRequest) -> Document:
            # A period job queued beside the shift's own set first makes what it adds up.
            day_table_reports(request.key)
            return documents.period_document(
                kind, request.key, request.context, allow_provisional=request.allow_provisional
            )

        return period

    for key in PERIOD_KINDS:
        register(
            ReportKind(
                key, key.replace("_", " ").capitalize(), period_of(key),
                pdf_period.period_sections,
                csv_period.PERIOD_COLUMNS, csv_period.period_rows, floor_staff,
                start=tasks.start_period,
            )
        )  # fmt: skip
