"""A task queued through the real Redis runs in a separately started Celery worker process
and writes its result to the real PostgreSQL."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection

from reports.models import JobRun
from reports.tasks import probe_worker

PROJECT = Path(__file__).resolve().parents[2]


def database_url_of_test_database() -> str:
    params = connection.settings_dict
    host = params["HOST"] or "127.0.0.1"
    port = params["PORT"] or 5432
    user = params["USER"] or "postgres"
    return f"postgres://{user}@{host}:{port}/{params['NAME']}"


@pytest.fixture
def celery_worker_process() -> Iterator[subprocess.Popen[str]]:
    env = dict(os.environ, DATABASE_URL=database_url_of_test_database())
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "casino",
            "worker",
            "-Q",
            "default,reports",
            "--pool",
            "solo",
            "--concurrency",
            "1",
            "-l",
            "warning",
            "--without-heartbeat",
            "--without-mingle",
            "--without-gossip",
        ],
        cwd=PROJECT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        yield worker
    finally:
        worker.terminate()
        worker.wait(timeout=30)


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
