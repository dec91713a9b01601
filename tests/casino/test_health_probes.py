"""The process manager's and balancer's probes: /api/live does no I/O, /api/ready is cheap."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings

from casino import health

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def forget_the_last_answer() -> Iterator[None]:
    health._ready_answer = (0.0, False, {})
    yield
    health._ready_answer = (0.0, False, {})


def test_live_answers_without_touching_the_database() -> None:
    with CaptureQueriesContext(connection) as queries:
        response = Client().get("/api/live")
    assert (response.status_code, response.json()) == (200, {"status": "live"})
    assert len(queries) == 0


def test_ready_asks_the_database_once_a_second_at_most() -> None:
    with CaptureQueriesContext(connection) as queries:
        first = Client().get("/api/ready")
        second = Client().get("/api/ready")
    assert first.status_code == second.status_code == 200
    assert first.json()["database"] == "ok"
    assert [query["sql"] for query in queries] == ["SELECT 1"]


def test_ready_refuses_traffic_when_redis_does_not_answer() -> None:
    # Port 9139 of this project's range has nothing listening: a real refused connection.
    with override_settings(REDIS_URL="redis://127.0.0.1:9139/0"):
        response = Client().get("/api/ready")
    assert response.status_code == 503
    assert response.json()["status"] == "not ready"
    assert response.json()["redis"] == "ConnectionError"
    assert response.json()["database"] == "ok"
