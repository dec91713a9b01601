"""Slips and the cage's figures through HTTP: each step by its role, refusals with their code,
and the cashier report built from what was entered."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from reports.models import CageFigures
from reports.services.storing import produce_report
from reports.shifts import floor_clock
from tests.reports.custody_floor import OPENING_CHIPS, Floor, past_shift

pytestmark = pytest.mark.django_db


def url(path: str) -> str:
    return f"/api/reports/{path}"


def post(client: Any, path: str, data: dict[str, Any]) -> tuple[int, Any]:
    response = client.post(url(path), data, format="json")
    return response.status_code, response.json()


def test_a_fill_goes_through_its_three_steps_over_http(floor: Floor, client_for: Any) -> None:
    pit, cage, dealer = (client_for(p) for p in (floor.pit_boss, floor.cashier, floor.dealer))
    table = floor.table.pk
    post(pit, f"tables/{table}/opener", {"chips": OPENING_CHIPS})
    post(client_for(floor.dealer), f"tables/{table}/opener/confirm", {})
    status, requested = post(pit, f"tables/{table}/fills", {"amounts": {"25": 500}})
    assert (status, requested["type"]) == (201, "custody.fill_requested")
    number = requested["payload"]["slip_number"]
    status, refused = post(dealer, f"slips/fill/{number}/confirm", {})
    assert (status, refused["code"]) == (409, "slip_out_of_order")
    status, refused = post(cage, f"slips/fill/{number}/issue", {"amounts": {"25": 400}})
    assert (status, refused["code"]) == (409, "slip_amount_differs")
    assert post(cage, f"slips/fill/{number}/issue", {})[0] == 201
    status, refused = post(cage, f"slips/fill/{number}/confirm", {})
    assert (status, refused["code"]) == (403, "permission_denied")
    status, confirmed = post(dealer, f"slips/fill/{number}/confirm", {})
    assert (status, confirmed["type"]) == (201, "custody.fill_confirmed")
    custody = pit.get(url(f"tables/{table}/custody"), requested["payload"]).json()
    assert (custody["fills_total"], custody["outstanding"]) == (500, [])


def test_a_credit_is_received_and_a_fill_cannot_be(floor: Floor, client_for: Any) -> None:
    pit, cage = client_for(floor.pit_boss), client_for(floor.cashier)
    table = floor.table.pk
    post(pit, f"tables/{table}/opener", {"chips": OPENING_CHIPS})
    post(client_for(floor.dealer), f"tables/{table}/opener/confirm", {})
    number = post(pit, f"tables/{table}/credits", {"amounts": {"100": 200}})[1]["payload"][
        "slip_number"
    ]
    assert cage.post(url(f"slips/credit/{number}/issue"), {}, format="json").status_code == 404
    status, received = post(cage, f"slips/credit/{number}/receive", {})
    assert (status, received["type"]) == (201, "custody.credit_received")
    custody = pit.get(url(f"tables/{table}/custody"), received["payload"]).json()
    assert custody["outstanding"] == [
        {"slip_type": "credit", "slip_number": number, "stage": "received", "total": 200}
    ]
    status, refused = post(cage, "slips/credit/77/receive", {})
    assert (status, refused["code"]) == (422, "unknown_slip")


def test_a_cashier_cannot_request_a_slip(floor: Floor, client_for: Any) -> None:
    status, refused = post(client_for(floor.cashier), f"tables/{floor.table.pk}/fills", {})
    assert (status, refused["code"]) == (403, "permission_denied")


def enter(client: Any, key: Any, **figures: Any) -> tuple[int, Any]:
    return post(
        client,
        "cage-figures",
        {"gaming_day": key.gaming_day.isoformat(), "shift": key.shift, **figures},
    )


def test_the_cage_figures_feed_the_cashier_report(
    floor: Floor, client_for: Any, auditor_alba: User
) -> None:
    key = past_shift(floor)  # one fill of 500, confirmed
    before = produce_report("cashier", key)
    assert before.document["over_short"]["fill"]["status"] == "not_entered"
    cage = client_for(floor.cashier)
    status, entered = enter(cage, key, fills_issued=600, credits_received=0)
    assert (status, entered["version"], entered["entered_by"]) == (201, 1, "carmen")
    report = produce_report("cashier", key)
    assert report.version == 2
    assert report.document["over_short"]["fill"] == {
        "cage": 600,
        "computed": 500,
        "awaiting_confirmation": 0,
        "difference": 100,
        "status": "over",
    }
    assert report.document["over_short"]["credit"]["status"] == "balanced"
    assert "cage 600; slips 500" in bytes(report.csv_bytes).decode()


def test_a_second_entry_is_a_correction_with_a_reason(floor: Floor, client_for: Any) -> None:
    key = past_shift(floor)
    cage = client_for(floor.cashier)
    enter(cage, key, fills_issued=600, credits_received=0)
    status, refused = enter(cage, key, fills_issued=500, credits_received=0)
    assert (status, refused["code"]) == (422, "missing_reason")
    status, corrected = enter(
        cage, key, fills_issued=500, credits_received=0, reason="counted slip 1 twice"
    )
    assert (status, corrected["version"]) == (201, 2)
    versions = cage.get(url("cage-figures"), {"gaming_day": key.gaming_day, "shift": key.shift})
    assert [row["fills_issued"] for row in versions.json()] == [600, 500]
    report = produce_report("cashier", key)
    assert report.document["over_short"]["fill"]["status"] == "balanced"
    assert report.document["cage_figures"]["reason"] == "counted slip 1 twice"


@pytest.mark.parametrize(
    ("figures", "code"),
    [
        ({"fills_issued": -5, "credits_received": 0}, "negative_amount"),
        ({"fills_issued": 10.5, "credits_received": 0}, "invalid_amount"),
        ({"fills_issued": "100", "credits_received": 0}, "invalid_amount"),
        ({"fills_issued": 100, "credits_received": True}, "invalid_amount"),
    ],
)
def test_bad_cage_figures_are_refused(
    floor: Floor, client_for: Any, figures: dict[str, Any], code: str
) -> None:
    key = floor_clock().last_ended(timezone.now())
    status, refused = enter(client_for(floor.cashier), key, **figures)
    assert (status, refused["code"]) == (422, code)
    assert not CageFigures.objects.exists()


def test_cage_figures_are_entered_by_a_cashier_for_a_shift_that_has_begun(
    floor: Floor, client_for: Any
) -> None:
    key = floor_clock().last_ended(timezone.now())
    figures = {"fills_issued": 0, "credits_received": 0}
    assert enter(client_for(floor.pit_boss), key, **figures)[0] == 403
    later = floor_clock().shift_of(timezone.now() + timedelta(days=2))
    status, refused = enter(client_for(floor.cashier), later, **figures)
    assert (status, refused["code"]) == (409, "shift_not_started")
    status, refused = post(
        client_for(floor.cashier),
        "cage-figures",
        {"gaming_day": "2026-01-15", "shift": "brunch", **figures},
    )
    assert (status, refused["code"]) == (422, "unknown_shift")
