"""Every operation of the OpenAPI schema, fuzzed as each kind of caller: no server error, and
every answer matches the schema. One floor serves the whole run and the example count per
operation is bounded, so it stays within a CI budget."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from casino.wsgi import application
from tests.policy.floor import ANONYMOUS, PERSONAS, PolicyFloor, build_floor

EXAMPLES_PER_OPERATION = 2
CSRF = "f" * 32  # an unmasked secret, sent as both the cookie and the header
CHECKS = [not_a_server_error, response_schema_conformance]


@pytest.fixture
def sessions(db: None) -> Iterator[dict[str, dict[str, str]]]:
    """A floor and each persona's session cookies; the app runs inside the test's transaction
    (as Django's own test client does, the connection is not closed between requests)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    floor: PolicyFloor = build_floor()
    cookies: dict[str, dict[str, str]] = {ANONYMOUS: {}}
    for persona in PERSONAS[1:]:
        client = Client()
        client.force_login(floor.people[persona])
        cookies[persona] = {"sessionid": client.cookies["sessionid"].value, "csrftoken": CSRF}
    yield cookies
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def fuzz(operation: Any, cookies: dict[str, dict[str, str]], tally: dict[str, int]) -> None:
    @given(case=operation.as_strategy())
    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    def each_caller(case: Any) -> None:
        for persona in PERSONAS:
            response = case.call(cookies=cookies[persona], headers={"X-CSRFToken": CSRF})
            tally["requests"] += 1
            tally["server_errors"] += response.status_code >= 500
            case.validate_response(response, checks=CHECKS)

    each_caller()


def test_no_operation_errs_or_breaks_its_schema_for_any_caller(
    sessions: dict[str, dict[str, str]],
) -> None:
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
    tally = {"operations": 0, "requests": 0, "server_errors": 0}
    for result in schema.get_all_operations():
        operation = result.ok()  # type: ignore[union-attr]  # an Err: the schema is broken
        tally["operations"] += 1
        fuzz(operation, sessions, tally)
    print(f"schema fuzz: {tally}")
    assert tally["operations"] > 80
    assert tally["server_errors"] == 0
