"""A task queued through the real Redis runs in a separately started Celery worker process
and writes its result to the real PostgreSQL."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator

import pytest
from django.db import connection

from reports.models import JobRun
from reports.tasks import probe_worker
from tests.integration.celery_workers import start_worker, stop_worker


@pytest.fixture
def celery_worker_process() -> Iterator[subprocess.Popen[str]]:
    worker = start_worker(queues="default,reports", pool="solo", concurrency=1)
    try:
        yield worker
    finally:
        stop_worker(worker)


@pytest.mark.django_db(transaction=True)
def test_task_runs_in_a_real_worker_and_writes_to_postgresql(
    celery_worker_process: subprocess.Popen[str],
) -> None:
    from django.conf import settings

    assert connection.vendor == "postgresql"
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    job = JobRun.objects.create(kind="probe")
    result = probe_worker.delay(str(job.pk))
    assert result.get(timeout=60) == "done"
    deadline = time.monotonic() + 10
    job.refresh_from_db()
    while job.status != JobRun.Status.SUCCEEDED and time.monotonic() < deadline:
        time.sleep(0.2)
        job.refresh_from_db()
    assert job.status == JobRun.Status.SUCCEEDED
    assert job.detail["worker_host"]
    assert celery_worker_process.poll() is None, "the worker must still be running"
