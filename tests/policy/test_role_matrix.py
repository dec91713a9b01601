"""The role matrix, generated from the policy's declaration: every API endpoint, called by
every kind of caller, answers as the declaration says (and never with a server error)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from tables import roles
from tables.policy.rules import Rule
from tests.policy.floor import (
    ANONYMOUS,
    ASSIGNED_DEALER,
    OTHER_DEALER,
    PERSONAS,
    ROLE_OF,
    PolicyFloor,
    build_floor,
)
from tests.policy.routes import Endpoint, api_endpoints, undeclared_endpoints

pytestmark = pytest.mark.django_db
REFUSED_BY_POLICY = {"permission_denied", "not_your_table", "not_authenticated"}


@pytest.fixture
def floor() -> PolicyFloor:
    return build_floor()


def expected(endpoint: Endpoint, persona: str) -> tuple[int, str] | None:
    """The refusal the declaration calls for, or None when the caller may send it."""
    rule: Rule = endpoint.rule
    if persona == ANONYMOUS:
        return 401, "not_authenticated"
    if ROLE_OF[persona] not in rule.roles:
        return 403, "permission_denied"
    dealer_rule = rule.own_table and roles.DEALER in rule.roles
    knows_table = endpoint.table_scoped or rule.name == "slip.confirm"
    if persona == OTHER_DEALER and dealer_rule and knows_table:
        return 403, "not_your_table"
    return None


def caller(floor: PolicyFloor, endpoint: Endpoint, persona: str) -> Any:
    """The Stud table's dealer is the "assigned dealer" of its own game's endpoints."""
    if endpoint.rule.game == floor.stud.game and persona in (ASSIGNED_DEALER, OTHER_DEALER):
        persona = OTHER_DEALER if persona == ASSIGNED_DEALER else ASSIGNED_DEALER
    return floor.client(persona)


def call(floor: PolicyFloor, endpoint: Endpoint, persona: str) -> tuple[int, str]:
    client = caller(floor, endpoint, persona)
    url = endpoint.url(floor)
    if endpoint.method == "GET":
        response = client.get(url)
    else:
        response = client.post(url, endpoint.body(), format="json")
    body = response.json() if "json" in response.get("Content-Type", "") else {}
    return response.status_code, body.get("code", "") if isinstance(body, dict) else ""


def test_every_api_endpoint_declares_its_command() -> None:
    assert undeclared_endpoints() == []


def test_the_matrix_covers_both_games_and_the_floor() -> None:
    games = {endpoint.rule.game for endpoint in api_endpoints()}
    assert games == {None, "siete_y_medio", "seven_card_stud"}
    assert len(api_endpoints()) > 80


@pytest.mark.parametrize("persona", PERSONAS)
def test_every_endpoint_answers_each_caller_as_the_policy_declares(
    floor: PolicyFloor, persona: str
) -> None:
    wrong = []
    for endpoint in api_endpoints():
        status, code = call(floor, endpoint, persona)
        refusal = expected(endpoint, persona)
        label = f"{endpoint.method} /{endpoint.route} as {persona}: {status} {code}"
        if status >= 500:
            wrong.append(f"{label} (server error)")
        elif refusal is not None and (status, code) != refusal:
            wrong.append(f"{label}, expected {refusal}")
        elif refusal is None and code in REFUSED_BY_POLICY:
            wrong.append(f"{label}, expected the policy to let it through")
    assert wrong == []


def test_the_auditor_reads_every_read_and_writes_nothing(floor: PolicyFloor) -> None:
    for endpoint in api_endpoints():
        refusal = expected(endpoint, "auditor")
        if endpoint.method == "POST" and endpoint.rule.name != "report.run":
            assert refusal == (403, "permission_denied"), endpoint
        if endpoint.method == "GET":
            assert refusal is None, endpoint


def test_the_admin_configures_but_holds_no_operational_step(floor: PolicyFloor) -> None:
    admin_may = {e.rule.name for e in api_endpoints() if expected(e, "admin") is None}
    assert admin_may == {
        "me.read", "table.read", "devices.read", "device.enroll", "roles.read",
        "role.grant_request", "role.grant_approve", "role.grant_refuse",
    }  # fmt: skip


def test_people_are_who_the_matrix_says(floor: PolicyFloor) -> None:
    dealer: User = floor.people[ASSIGNED_DEALER]
    assert roles.roles_of(dealer) == {roles.DEALER}
