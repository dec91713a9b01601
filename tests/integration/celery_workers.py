"""Starting and stopping a real Celery worker process against the test database."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from django.db import connection

PROJECT = Path(__file__).resolve().parents[2]


def worker_database_url() -> str:
    """The URL of the database pytest-django created, for a process outside the test."""
    params = connection.settings_dict
    host = params["HOST"] or "127.0.0.1"
    port = params["PORT"] or 5432
    user = params["USER"] or "postgres"
    return f"postgres://{user}@{host}:{port}/{params['NAME']}"


def start_worker(
    *,
    queues: str,
    pool: str = "prefork",
    concurrency: int = 2,
    extra_env: dict[str, str] | None = None,
) -> subprocess.Popen[str]:
    env = dict(os.environ, DATABASE_URL=worker_database_url(), **(extra_env or {}))
    command = [
        sys.executable, "-m", "celery", "-A", "casino", "worker", "-Q", queues,
        "--pool", pool, "--concurrency", str(concurrency), "-l", "warning",
        "--without-heartbeat", "--without-mingle", "--without-gossip",
    ]  # fmt: skip
    return subprocess.Popen(
        command,
        cwd=PROJECT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )


def stop_worker(worker: subprocess.Popen[str]) -> None:
    worker.terminate()
    try:
        worker.wait(timeout=30)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait(timeout=10)
