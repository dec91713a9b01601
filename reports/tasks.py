"""Celery tasks: thin wrappers that take ids, never model instances."""

from __future__ import annotations

import socket

from celery import shared_task
from django.utils import timezone

from reports.models import JobRun


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
