from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

from tables.services.floor import dealer_assign
from tests.reports.custody_floor import Floor, make_siete_table


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """The personas' passwords are never checked here; a slow hash only slows the tests."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def floor(
    dealer_dora: User,
    pit_boss_paula: User,
    pit_boss_pedro: User,
    cashier_carmen: User,
) -> Floor:
    table = make_siete_table()
    # The table's own dealer confirms its slips.
    dealer_assign(table_id=table.pk, dealer=dealer_dora, by=pit_boss_paula)
    return Floor(
        table=table,
        dealer=dealer_dora,
        pit_boss=pit_boss_paula,
        other_pit_boss=pit_boss_pedro,
        cashier=cashier_carmen,
    )


@pytest.fixture
def eager_celery() -> Iterator[None]:
    """Run report jobs in process; the real worker is exercised by tests/integration."""
    from casino.celery import app

    saved = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved
