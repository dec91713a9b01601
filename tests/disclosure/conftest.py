"""The people at the disclosure tests' tables, with fast password hashing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import Group, User

from tables import roles


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def people(
    dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User, auditor_alba: User
) -> dict[str, User]:
    root = User.objects.create_superuser("root", password="root-pw")
    root.groups.set(Group.objects.filter(name=roles.ADMIN))  # as the demo floor's admin
    return {
        "dealer": dealer_dora,
        "pit_boss": pit_boss_paula,
        "pit_boss_2": pit_boss_pedro,
        "auditor": auditor_alba,
        "admin": root,
    }


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks: Any) -> Iterator[Any]:
    """Run the callbacks queued on commit (the report runs) inside the test's transaction, and
    their Celery tasks in process through the same tracer a worker runs them with (its INFO
    lines included); tests/disclosure/test_worker_logs.py reads a real worker's."""
    from casino.celery import app

    saved = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    yield django_capture_on_commit_callbacks
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved
