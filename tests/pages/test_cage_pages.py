"""The cashier's page: who gets it, the slips waiting, issuing by denomination."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from reports.models import Slip
from tables.services.custody import slips
from tests.pages.supervision_floor import LiveFloor, live_floor

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor(
    dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User, cashier_carmen: User
) -> LiveFloor:
    return live_floor(dealer_dora, pit_boss_paula, pit_boss_pedro, cashier_carmen)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def request_fill(floor: LiveFloor) -> int:
    event = slips.slip_request(
        slip_type="fill", table_id=floor.table.pk, amounts={"100": 500}, pit_boss=floor.pit_boss
    )
    return int(event.payload["slip_number"])


@pytest.mark.parametrize("path", ["/cage/", "/cage/counter/"])
def test_only_a_cashier_gets_the_cage(floor: LiveFloor, auditor_alba: User, path: str) -> None:
    for user in (floor.dealer, floor.pit_boss, auditor_alba):
        assert signed_in(user).get(path).status_code == 403, user
    assert signed_in(floor.cashier).get(path).status_code == 200


def test_a_requested_fill_waits_at_the_cage(floor: LiveFloor) -> None:
    number = request_fill(floor)
    page = signed_in(floor.cashier).get("/cage/")
    assert f'data-slip="fill-{number}"'.encode() in page.content
    assert "5 \u00d7 100".encode() in page.content  # five chips of 100


def test_the_cashier_issues_the_fill_counted_by_denomination(floor: LiveFloor) -> None:
    number = request_fill(floor)
    response = signed_in(floor.cashier).post(f"/cage/slips/fill/{number}/", {"chips-100": "5"})
    assert response.status_code == 200
    assert Slip.objects.get(number=number).stage == Slip.Stage.ISSUED
    assert f'data-slip="fill-{number}"'.encode() not in response.content


def test_a_count_that_differs_from_the_request_is_refused(floor: LiveFloor) -> None:
    number = request_fill(floor)
    response = signed_in(floor.cashier).post(f"/cage/slips/fill/{number}/", {"chips-100": "4"})
    assert response.status_code in (409, 422)
    assert b'class="refusal"' in response.content
    assert Slip.objects.get(number=number).stage == Slip.Stage.REQUESTED


def test_a_pit_boss_cannot_issue_at_the_cage(floor: LiveFloor) -> None:
    number = request_fill(floor)
    response = signed_in(floor.pit_boss).post(f"/cage/slips/fill/{number}/", {"chips-100": "5"})
    assert response.status_code == 403
    assert Slip.objects.get(number=number).stage == Slip.Stage.REQUESTED


def test_an_unknown_slip_is_refused_with_a_sentence(floor: LiveFloor) -> None:
    response = signed_in(floor.cashier).post("/cage/slips/fill/99/", {"chips-100": "5"})
    assert response.status_code == 422
    assert b"There is no fill slip 99" in response.content
