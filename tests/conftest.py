"""Shared fixtures: the personas of the floor and the integration-tier gate."""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from rest_framework.test import APIClient

from tables import roles

SERVICES_CONFIGURED = bool(os.environ.get("DATABASE_URL")) and bool(os.environ.get("REDIS_URL"))
SERVICES_REQUIRED = (
    os.environ.get("CI", "").lower() == "true" or os.environ.get("REQUIRE_SERVICES") == "1"
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "/tests/integration/" in str(item.path):
            item.add_marker(pytest.mark.integration)


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("integration") is None or SERVICES_CONFIGURED:
        return
    message = "integration test needs DATABASE_URL (PostgreSQL) and REDIS_URL"
    if SERVICES_REQUIRED:
        pytest.fail(f"{message}, and CI=true / REQUIRE_SERVICES=1 says they must be present")
    pytest.skip(message)


def make_user(username: str, *role_names: str) -> User:
    user = User.objects.create_user(username=username, password=f"{username}-pw")
    # get_or_create: a transactional test's flush empties the groups the data migration made.
    user.groups.set([Group.objects.get_or_create(name=name)[0] for name in role_names])
    return user


@pytest.fixture
def dealer_dora(db: None) -> User:
    return make_user("dora", roles.DEALER)


@pytest.fixture
def dealer_dan(db: None) -> User:
    return make_user("dan", roles.DEALER)


@pytest.fixture
def pit_boss_paula(db: None) -> User:
    return make_user("paula", roles.PIT_BOSS)


@pytest.fixture
def pit_boss_pedro(db: None) -> User:
    return make_user("pedro", roles.PIT_BOSS)


@pytest.fixture
def cashier_carmen(db: None) -> User:
    return make_user("carmen", roles.CASHIER)


@pytest.fixture
def auditor_alba(db: None) -> User:
    return make_user("alba", roles.AUDITOR)


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def client_for(api: APIClient):  # type: ignore[no-untyped-def]
    """An API client signed in as the given user (token-less, forced authentication)."""

    def sign_in(user: User) -> APIClient:
        client = APIClient()
        client.force_authenticate(user)
        return client

    return sign_in


@pytest.fixture
def tally_game() -> Any:
    """Register the test-only tally game with the services for the duration of a test."""
    from tables import games
    from tests.tables.tally_game import BINDING

    games.register(BINDING)
    yield BINDING
    games.unregister(BINDING.key)


@pytest.fixture
def tally_table(db: None, tally_game: Any, pit_boss_paula: User) -> Any:
    from tables.models import Table
    from tables.services.floor import table_create, table_set_status

    table = table_create(name="T1", game="tally", seat_count=2, settings={"max_add": 100})
    table_set_status(table_id=table.pk, status=Table.Status.OPEN, actor=pit_boss_paula)
    table.refresh_from_db()
    return table
