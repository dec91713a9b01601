"""Celery tasks: thin wrappers that take ids, never model instances, on the `reports` queue.

Every report task stores its report in one transaction at its very end (see
reports.services.storing), so a worker killed mid-job leaves no half report; the broker then
hands the job to another worker (acks late, rejected on worker loss), and the re-run is
idempotent: it writes the report once, or finds it already stored.
"""

from __future__ import annotations

import os
import socket
import time
from datetime import date
from typing import Any

from celery import chord, shared_task
from django.db.models import F
from django.db.models.functions import Least
from django.utils import timezone

from casino.db_router import replica_reads
from reports import kinds
from reports.builders.period import PERIOD_KINDS
from reports.inputs.audit import (
    findings_from_json,
    findings_to_json,
    merge_findings,
    table_findings,
)
from reports.models import JobRun, Report
from reports.services.documents import PERIOD_SHIFT
from reports.services.storing import produce_report
from reports.shifts import ShiftKey, floor_clock, parse_shift_key
from tables.engine.errors import RuleError
from tables.models import Table

# A fault-injection pause before the report row is written, read only from the worker's
# environment; the integration test kills a worker during it. Unset in every deployment.
PAUSE_ENV = "CASINO_REPORTS_PAUSE_BEFORE_STORE"
TABLE_SHARE_OF_FLOOR_PROGRESS = 90
SHIFT_END_KIND = "shift_end_reports"
# The floor summary's chord makes every table's shift report on the way.
SHIFT_SET = (Report.Kind.FLOOR_SUMMARY, Report.Kind.CASHIER, Report.Kind.AUDIT)


@shared_task(name="reports.tasks.probe_worker")
def probe_worker(job_id: str) -> str:
    """Mark a probe job done from the worker, proving the queue and the database both work."""
    updated = JobRun.objects.filter(pk=job_id).update(
        status=JobRun.Status.SUCCEEDED,
        progress_percent=100,
        detail={"worker_host": socket.gethostname()},
        started_at=timezone.now(),
        finished_at=timezone.now(),
    )
    return "done" if updated else "missing"


@shared_task(name="reports.tasks.table_shift_report")
def table_shift_report(
    job_id: str | None,
    table_id: int,
    gaming_day: str,
    shift: str,
    reprint: bool = False,
    allow_provisional: bool = True,
    parent_job_id: str | None = None,
) -> int | None:
    """One table's shift report; inside a floor chord, ``parent_job_id`` gets the progress."""
    key = parse_shift_key(gaming_day, shift)
    report = _run(
        job_id or parent_job_id,
        lambda: produce_report(
            Report.Kind.TABLE_SHIFT,
            key,
            table=Table.objects.get(pk=table_id),
            reprint=reprint,
            allow_provisional=allow_provisional,
            job_id=job_id or parent_job_id,
            before_store=_fault_injection_pause,
        ),
        finishes_job=job_id is not None,
    )
    if parent_job_id is not None:
        _advance_progress(parent_job_id)
    return report


@shared_task(name="reports.tasks.floor_summary_report")
def floor_summary_report(
    table_report_ids: list[int | None],
    job_id: str | None,
    gaming_day: str,
    shift: str,
    reprint: bool = False,
    allow_provisional: bool = True,
) -> int | None:
    """The chord's body: the floor summary over the table reports its header stored."""
    key = parse_shift_key(gaming_day, shift)
    if any(report_id is None for report_id in table_report_ids):
        _finish(job_id, None, error={"code": "table_report_failed", "message": "A table failed."})
        return None
    ids = [report_id for report_id in table_report_ids if report_id is not None]
    return _run(
        job_id,
        lambda: produce_report(
            Report.Kind.FLOOR_SUMMARY,
            key,
            reprint=reprint,
            allow_provisional=allow_provisional,
            job_id=job_id,
            table_report_ids=ids,
            before_store=_fault_injection_pause,
        ),
    )


@shared_task(name="reports.tasks.audit_table_findings")
def audit_table_findings(
    table_id: int, gaming_day: str, shift: str, parent_job_id: str | None = None
) -> dict[str, Any]:
    """One table's chain verification, replay and findings: the audit chord's header, so the
    workers verify the floor's tables side by side."""
    try:
        table = Table.objects.get(pk=table_id)
        with replica_reads():
            findings = table_findings(table, parse_shift_key(gaming_day, shift))
    except Exception as error:
        # The chord's body will not run: the audit run fails here, visibly.
        _finish(parent_job_id, None, error={"code": "table_audit_failed", "message": str(error)})
        raise
    if parent_job_id is not None:
        _advance_progress(parent_job_id)
    return findings_to_json(findings)


@shared_task(name="reports.tasks.audit_report")
def audit_report(
    table_findings_json: list[dict[str, Any]],
    job_id: str | None,
    gaming_day: str,
    shift: str,
    reprint: bool = False,
    allow_provisional: bool = True,
) -> int | None:
    """The audit chord's body: the audit report over every table's findings."""
    key = parse_shift_key(gaming_day, shift)
    merged = merge_findings([findings_from_json(part) for part in table_findings_json])
    return _run(
        job_id,
        lambda: produce_report(
            Report.Kind.AUDIT,
            key,
            reprint=reprint,
            allow_provisional=allow_provisional,
            job_id=job_id,
            audit_findings=merged,
            before_store=_fault_injection_pause,
        ),
    )


@shared_task(name="reports.tasks.shift_level_report")
def shift_level_report(
    job_id: str | None,
    kind: str,
    gaming_day: str,
    shift: str,
    reprint: bool = False,
    allow_provisional: bool = True,
) -> int | None:
    """The cashier or the audit report of a shift."""
    key = parse_shift_key(gaming_day, shift)
    return _run_whole(job_id, kind, key, reprint, allow_provisional)


@shared_task(name="reports.tasks.period_report")
def period_report(
    job_id: str | None,
    kind: str,
    gaming_day: str,
    reprint: bool = False,
    allow_provisional: bool = True,
) -> int | None:
    """The gaming day's, the month's or the year's totals up to ``gaming_day``."""
    key = ShiftKey(date.fromisoformat(gaming_day), PERIOD_SHIFT)
    return _run_whole(job_id, kind, key, reprint, allow_provisional)


def _run_whole(
    job_id: str | None, kind: str, key: ShiftKey, reprint: bool, allow_provisional: bool
) -> int | None:
    """One job that produces one report of `kind` for `key` (no chord over the tables)."""
    return _run(
        job_id,
        lambda: produce_report(
            kind,
            key,
            reprint=reprint,
            allow_provisional=allow_provisional,
            job_id=job_id,
            before_store=_fault_injection_pause,
        ),
    )


@shared_task(name="reports.tasks.shift_end_reports")
def shift_end_reports(
    ended_shift: str | None = None, gaming_day: str | None = None, shift: str | None = None
) -> list[str]:
    """The beat's job: the whole report set of the shift that just ended, once.

    The beat names the shift whose end it watches (``ended_shift``); nothing happens unless
    that shift is the last one that ended. ``gaming_day`` and ``shift`` name one explicitly.
    """
    if gaming_day and shift:
        key = parse_shift_key(gaming_day, shift)
    else:
        key = floor_clock().last_ended(timezone.now())
        if ended_shift is not None and key.shift != ended_shift:
            return []
    marker = f"{key.gaming_day.isoformat()}/{key.shift}"
    # One set per shift: the beat is single, and a second firing finds the marker run.
    if JobRun.objects.filter(kind=SHIFT_END_KIND, detail__shift_end=marker).exists():
        return []
    JobRun.objects.create(
        kind=SHIFT_END_KIND,
        status=JobRun.Status.SUCCEEDED,
        progress_percent=100,
        detail={"shift_end": marker},
        finished_at=timezone.now(),
    )
    runs = [start_run(kind, key) for kind in SHIFT_SET]
    if ends_gaming_day(key):
        day = ShiftKey(key.gaming_day, PERIOD_SHIFT)
        runs += [start_run(kind, day) for kind in PERIOD_KINDS]
    return [str(run.pk) for run in runs]


def ends_gaming_day(key: ShiftKey) -> bool:
    """The shift is the gaming day's last: the day's, month's and year's totals follow it."""
    clock = floor_clock()
    ends = {name: clock.bounds(ShiftKey(key.gaming_day, name))[1] for name in clock.shift_names()}
    return ends[key.shift] == max(ends.values())


def start_run(
    kind: str,
    key: ShiftKey,
    *,
    table_id: int | None = None,
    reprint: bool = False,
    allow_provisional: bool = True,
    job: JobRun | None = None,
) -> JobRun:
    """Queue a report run under ``job`` (a new JobRun when not given). A caller inside a
    transaction calls this from ``transaction.on_commit``, so the worker finds the run."""
    detail: dict[str, Any] = {
        "gaming_day": key.gaming_day.isoformat(),
        "shift": key.shift,
        "table_id": table_id,
        "reprint": reprint,
        "allow_provisional": allow_provisional,
    }
    table_ids = list(Table.objects.order_by("name").values_list("pk", flat=True))
    spec = kinds.kind_for(kind)
    if spec.by_table_progress:
        detail["tables"] = len(table_ids)
    job = _job_with(job, kind, detail)
    request = kinds.RunRequest(job, key, table_id, table_ids, reprint, allow_provisional)
    if spec.start is not None:
        spec.start(request)
    else:
        shift_level_report.delay(str(job.pk), kind, *_run_args(request))
    return job


def _run_args(request: kinds.RunRequest) -> tuple[str, str, bool, bool]:
    key = request.key
    return (key.gaming_day.isoformat(), key.shift, request.reprint, request.allow_provisional)


def start_floor_summary(request: kinds.RunRequest) -> None:
    """Every table's shift report in a chord's header, the floor summary its body."""
    args, job_id = _run_args(request), str(request.job.pk)
    header = [
        table_shift_report.si(None, pk, args[0], args[1], False, True, job_id)
        for pk in request.table_ids
    ]
    chord(header)(floor_summary_report.s(job_id, *args))


def start_audit(request: kinds.RunRequest) -> None:
    """Each table's findings in a chord's header, the audit its body."""
    args, job_id = _run_args(request), str(request.job.pk)
    checks = [audit_table_findings.si(pk, args[0], args[1], job_id) for pk in request.table_ids]
    chord(checks)(audit_report.s(job_id, *args))


def start_period(request: kinds.RunRequest) -> None:
    """The day's, the month's or the year's totals, one job."""
    period_report.delay(
        str(request.job.pk), request.job.kind, request.key.gaming_day.isoformat(),
        request.reprint, request.allow_provisional,
    )  # fmt: skip


def start_table_shift(request: kinds.RunRequest) -> None:
    assert request.table_id is not None, "a table shift report names its table"
    table_shift_report.delay(str(request.job.pk), request.table_id, *_run_args(request))


def _job_with(job: JobRun | None, kind: str, detail: dict[str, Any]) -> JobRun:
    if job is None:
        return JobRun.objects.create(kind=kind, detail=detail)
    job.detail = job.detail | detail
    job.save(update_fields=["detail"])
    return job


def _run(job_id: str | None, work: Any, *, finishes_job: bool = True) -> int | None:
    """Run ``work`` under the JobRun's status. A rule refusal fails the run with its code and
    is not retried (the same inputs would be refused again). A chord's header job does not
    finish its parent run (``finishes_job=False``) but does fail it."""
    if job_id is not None and finishes_job:
        _mark_running(job_id)
    try:
        report = work()
    except RuleError as error:
        _finish(job_id, None, error={"code": error.code, "message": str(error)})
        return None
    except Exception as error:
        _finish(job_id, None, error={"code": "internal_error", "message": str(error)})
        raise
    if finishes_job:
        _finish(job_id, report)
    return int(report.pk)


def _mark_running(job_id: str) -> None:
    """Running, with the process that runs it and the attempt (a redelivery adds one)."""
    job = JobRun.objects.filter(pk=job_id).first()
    if job is None:
        return
    attempts = int(job.detail.get("attempts", 0)) + 1
    job.status, job.started_at = JobRun.Status.RUNNING, timezone.now()
    job.detail = job.detail | {"worker_pid": os.getpid(), "attempts": attempts}
    job.save(update_fields=["status", "started_at", "detail"])


def _finish(job_id: str | None, report: Report | None, error: dict[str, str] | None = None) -> None:
    if job_id is None:
        return
    job = JobRun.objects.filter(pk=job_id).first()
    if job is None:
        return
    job.finished_at = timezone.now()
    if report is not None:
        job.status, job.progress_percent = JobRun.Status.SUCCEEDED, 100
        job.detail = job.detail | {"report_id": report.pk, "version": report.version}
    else:
        job.status = JobRun.Status.FAILED
        job.detail = job.detail | {"error": error or {}}
    job.save(update_fields=["status", "progress_percent", "detail", "finished_at"])


def _advance_progress(job_id: str) -> None:
    """One more table done in a chord's header; a run already failed stays failed."""
    job = JobRun.objects.filter(pk=job_id).first()
    if job is None:
        return
    step = max(1, TABLE_SHARE_OF_FLOOR_PROGRESS // max(1, int(job.detail.get("tables", 1))))
    JobRun.objects.filter(pk=job_id).exclude(status=JobRun.Status.FAILED).update(
        status=JobRun.Status.RUNNING,
        progress_percent=Least(F("progress_percent") + step, TABLE_SHARE_OF_FLOOR_PROGRESS),
    )


def _fault_injection_pause() -> None:
    seconds = float(os.environ.get(PAUSE_ENV) or 0)
    if seconds > 0:
        time.sleep(seconds)
