"""Report jobs on a real Celery worker (prefork), PostgreSQL and Redis: the floor chord over
several tables, a worker process killed mid-job and the redelivered job, idempotent re-runs
and a reprint."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.utils import timezone

from reports.models import JobRun, Report
from reports.shifts import ShiftKey, floor_clock
from reports.tasks import PAUSE_ENV, start_run
from tables import roles
from tables.models import Table
from tables.services import custody
from tables.services.custody import slips
from tables.services.floor import dealer_assign, table_create
from tests.integration.celery_workers import start_worker, stop_worker
from tests.reports.custody_floor import close_books, open_books

TABLES = 3
PAUSE_SECONDS = 6


def start(**extra_env: str) -> subprocess.Popen[str]:
    return start_worker(queues="reports", extra_env=extra_env)


@pytest.fixture
def worker() -> Iterator[subprocess.Popen[str]]:
    process = start()
    yield process
    stop_worker(process)


@pytest.fixture
def slow_worker() -> Iterator[subprocess.Popen[str]]:
    """A worker that pauses just before writing each report, long enough to be killed."""
    process = start(**{PAUSE_ENV: str(PAUSE_SECONDS)})
    yield process
    stop_worker(process)


def person(username: str, role: str) -> User:
    user = User.objects.create_user(username=username)
    # A transactional test's flush also empties the groups the roles migration created.
    user.groups.set([Group.objects.get_or_create(name=role)[0]])
    return user


@pytest.fixture
def past_shift() -> ShiftKey:
    """Three tables opened, filled, closed and counted in the last shift that ended."""
    dealer = person("dora", roles.DEALER)
    pit_boss = person("paula", roles.PIT_BOSS)
    cashier = person("carmen", roles.CASHIER)
    clock = floor_clock()
    key = clock.last_ended(timezone.now())
    moment = clock.bounds(key)[0] + timedelta(minutes=10)
    for number in range(1, TABLES + 1):
        table = table_create(
            name=f"W-{number}",
            game=Table.Game.SIETE_Y_MEDIO,
            seat_count=6,
            settings={"min_stake": 10, "max_stake": 500, "chip": 5},
        )
        open_books(
            table.pk,
            dealer=dealer,
            pit_boss=pit_boss,
            chips={"100": 20},
            occurred_at=moment,
        )
        custody.buy_in_record(table_id=table.pk, amount=300 * number, actor=dealer)
        dealer_assign(table_id=table.pk, dealer=dealer, by=pit_boss)
        fill = slips.slip_request(
            slip_type="fill", table_id=table.pk, amounts={"100": 100 * number}, pit_boss=pit_boss
        ).payload["slip_number"]
        slips.slip_cage_sign(slip_type="fill", slip_number=fill, cashier=cashier)
        slips.slip_confirm(slip_type="fill", slip_number=fill, dealer=dealer)
        close_books(table.pk, dealer=dealer, pit_boss=pit_boss, chips={"100": 25})
        custody.drop_count(table_id=table.pk, amount=300 * number, counted_by=cashier)
    return key


def wait_for(job: JobRun, *, timeout: float = 90) -> JobRun:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status in (JobRun.Status.SUCCEEDED, JobRun.Status.FAILED):
            return job
        time.sleep(0.2)
    raise AssertionError(f"the job did not finish: {job.status} {job.detail}")


def reports_of(kind: str, key: ShiftKey) -> Any:
    return Report.objects.filter(kind=kind, gaming_day=key.gaming_day, shift=key.shift)


@pytest.mark.django_db(transaction=True)
def test_the_floor_chord_reports_every_table_then_totals_them(
    worker: subprocess.Popen[str], past_shift: ShiftKey
) -> None:
    job = wait_for(start_run(Report.Kind.FLOOR_SUMMARY, past_shift))
    assert job.status == JobRun.Status.SUCCEEDED, job.detail
    assert job.progress_percent == 100
    assert reports_of("table_shift", past_shift).count() == TABLES
    summary = Report.objects.get(pk=job.detail["report_id"])
    floor = summary.document["floor"]
    assert floor["tables"] == TABLES
    assert floor["fills"] == sum(100 * n for n in range(1, TABLES + 1))
    assert floor["drop"] == sum(300 * n for n in range(1, TABLES + 1))
    assert not summary.provisional
    assert worker.poll() is None


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_job_leaves_no_half_report_and_the_retry_completes(
    slow_worker: subprocess.Popen[str], past_shift: ShiftKey
) -> None:
    job = start_run(Report.Kind.CASHIER, past_shift)
    deadline = time.monotonic() + 60
    while "worker_pid" not in job.detail and time.monotonic() < deadline:
        time.sleep(0.1)
        job.refresh_from_db()
    first_pid = job.detail["worker_pid"]
    time.sleep(1)  # inside the pause before the report is stored
    os.kill(first_pid, signal.SIGKILL)
    time.sleep(0.5)
    assert not reports_of("cashier", past_shift).exists()
    job = wait_for(job)
    assert job.status == JobRun.Status.SUCCEEDED, job.detail
    assert job.detail["attempts"] == 2
    assert job.detail["worker_pid"] != first_pid
    stored = reports_of("cashier", past_shift)
    assert stored.count() == 1
    assert stored.get().version == 1
    assert slow_worker.poll() is None, "the worker itself survives the loss of a child"


@pytest.mark.django_db(transaction=True)
def test_same_inputs_give_the_same_bytes_and_a_reprint_is_a_new_version(
    worker: subprocess.Popen[str], past_shift: ShiftKey
) -> None:
    first = wait_for(start_run(Report.Kind.AUDIT, past_shift))
    again = wait_for(start_run(Report.Kind.AUDIT, past_shift))
    assert first.detail["report_id"] == again.detail["report_id"]
    original = Report.objects.get(pk=first.detail["report_id"])
    reprint = wait_for(start_run(Report.Kind.AUDIT, past_shift, reprint=True))
    reprinted = Report.objects.get(pk=reprint.detail["report_id"])
    assert (reprinted.version, reprinted.reprint) == (2, True)
    assert reprinted.watermark == original.watermark
    assert reprinted.content_hash != original.content_hash
    assert reports_of("audit", past_shift).count() == 2
    original.refresh_from_db()
    assert bytes(original.pdf_bytes).startswith(b"%PDF")
