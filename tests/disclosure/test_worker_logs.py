"""A real Celery worker's INFO lines name no face-down card while the round is live.

The worker logs every task's result at INFO; an audit's table findings pass between its tasks
that way. Runs on PostgreSQL and Redis with a worker process (the integration tier).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User
from django.utils import timezone

from reports.models import JobRun
from reports.shifts import floor_clock
from reports.tasks import start_run
from tables import roles
from tests.disclosure.floor import named, siete_live_round
from tests.integration.celery_workers import PROJECT, stop_worker, worker_database_url

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def person(username: str, role: str, *, superuser: bool = False) -> User:
    user = User.objects.create_user(username=username, password=f"{username}-pw")
    user.is_staff = user.is_superuser = superuser
    user.save()
    # A transactional test's flush also empties the groups the roles migration created.
    user.groups.set([Group.objects.get_or_create(name=role)[0]])
    return user


@pytest.fixture
def worker_log(tmp_path: Path) -> Iterator[Path]:
    log = tmp_path / "worker.log"
    env = dict(os.environ, DATABASE_URL=worker_database_url())
    command = [
        sys.executable, "-m", "celery", "-A", "casino", "worker", "-Q", "reports",
        "--pool", "solo", "-l", "info",
        "--without-heartbeat", "--without-mingle", "--without-gossip",
    ]  # fmt: skip
    with log.open("w") as output:
        process = subprocess.Popen(
            command, cwd=PROJECT, env=env, stdout=output, stderr=subprocess.STDOUT, text=True
        )
        yield log
        stop_worker(process)


def test_the_workers_info_lines_name_no_hidden_card(worker_log: Path) -> None:
    people = {
        "dealer": person("dora", roles.DEALER),
        "pit_boss": person("paula", roles.PIT_BOSS),
        "pit_boss_2": person("pedro", roles.PIT_BOSS),
        "auditor": person("alba", roles.AUDITOR),
        "admin": person("root", roles.ADMIN, superuser=True),
    }
    live, shoe = siete_live_round(people)
    assert shoe.draw("6E") != "accepted"  # a duplicate of box 1's face-down card: an alert
    job = start_run("audit", floor_clock().shift_of(timezone.now()))
    deadline = time.monotonic() + 90
    while job.status not in (JobRun.Status.SUCCEEDED, JobRun.Status.FAILED):
        assert time.monotonic() < deadline, job.detail
        time.sleep(0.3)
        job.refresh_from_db()
    assert job.status == JobRun.Status.SUCCEEDED, job.detail
    time.sleep(0.5)  # the success line is written just after the result
    text = worker_log.read_text()
    assert "reports.tasks.audit_table_findings" in text
    assert "succeeded" in text
    assert named(live.hidden, text) == set()
