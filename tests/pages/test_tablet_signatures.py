"""The dealer's own work on the tablet besides the game: his correction requests and their
outcome, and the counts and slips that wait for his confirmation."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tables import games
from tables.models import Table
from tables.services import custody
from tables.services.custody import slips
from tables.services.floor import dealer_assign, table_create
from tests.api.game_clients import OPENING_CHIPS, SIETE_SETTINGS, Tablet, open_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def siete_table(dealer_dora: User, pit_boss_paula: User) -> Table:
    return open_table("SyM-C", "siete_y_medio", SIETE_SETTINGS, dealer_dora, pit_boss_paula)


def screen_of(user: User, table: Table, full: bool = False) -> str:
    page = Client()
    page.force_login(user)
    path = f"/tablet/tables/{table.pk}/" + ("" if full else "state")
    answer = page.get(path)
    assert answer.status_code == 200
    return str(answer.content.decode())


def test_the_dealer_files_a_correction_and_sees_the_pit_bosss_decision(
    client_for: Any, dealer_dora: User, pit_boss_paula: User, siete_table: Table
) -> None:
    page = screen_of(dealer_dora, siete_table, full=True)
    # One form per correction the game declares, each with the table's boxes to pick from.
    assert 'data-correction="void_box"' in page
    assert 'data-correction="correct_payout"' in page
    tablet = Tablet(client_for(dealer_dora), siete_table, "siete")
    tablet.send("place_wager", box=2, amount=20)
    # What the form sends: the command with its fields, the reason in both places.
    asked = tablet.client.post(
        f"/api/tables/{siete_table.pk}/corrections",
        {"command": {"type": "void_box", "data": {"box": 2, "reason": "late bet"}},
         "reason": "late bet"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="tap-correction-1",
    )  # fmt: skip
    assert asked.status_code == 201, asked.json()
    listed = screen_of(dealer_dora, siete_table)
    assert re.search(r'data-status="pending">.*Void a box.*Box 2.*late bet', listed)
    refused = client_for(pit_boss_paula).post(
        f"/api/corrections/{asked.json()['id']}/refuse", {"note": "it was in time"}, format="json"
    )
    assert refused.status_code == 200, refused.json()
    listed = screen_of(dealer_dora, siete_table)
    assert 'data-status="refused"' in listed
    for said in ("REFUSED", "paula", "it was in time"):
        assert said in listed


def test_a_correction_the_engine_cannot_parse_is_refused_with_the_services_code(
    client_for: Any, dealer_dora: User, siete_table: Table
) -> None:
    asked = client_for(dealer_dora).post(
        f"/api/tables/{siete_table.pk}/corrections",
        {"command": {"type": "void_box", "data": {"box": "two"}}, "reason": "late"},
        format="json",
    )
    assert asked.status_code == 422
    assert asked.json()["code"]
    assert "data-status" not in screen_of(dealer_dora, siete_table)


def test_another_dealer_has_no_correction_form_and_no_list(
    dealer_dan: User, dealer_dora: User, siete_table: Table
) -> None:
    page = Client()
    page.force_login(dealer_dan)
    answer = page.get(f"/tablet/tables/{siete_table.pk}/")
    assert answer.status_code == 403
    assert b"data-correction" not in answer.content


def test_every_declared_correction_is_one_the_game_needs_a_second_person_for() -> None:
    for key in ("siete_y_medio", "seven_card_stud"):
        binding = games.binding_for(key)
        declared = [command for command, _ in binding.correction_fields]
        assert sorted(declared) == sorted(binding.approval_commands), key


def test_the_closing_count_waits_for_the_dealer_and_his_tap_confirms_it(
    client_for: Any, dealer_dora: User, pit_boss_paula: User, siete_table: Table
) -> None:
    assert 'id="awaiting"' not in screen_of(dealer_dora, siete_table)
    custody.custody_close(
        table_id=siete_table.pk, pit_boss=pit_boss_paula, chips={"5": 90, "25": 40}
    )
    shown = screen_of(dealer_dora, siete_table)
    assert 'data-awaiting="closer"' in shown
    assert re.search(r'data-denomination="25"><td>25</td><td>40</td><td>1000</td>', shown)
    assert re.search(r"data-total>1450<", shown)
    endpoint = re.search(r'data-endpoint="([^"]+/closer/confirm)"', shown)
    assert endpoint is not None
    # The pit boss sees no Confirm: the policy keeps custody.confirm for the table's dealer.
    assert 'id="awaiting"' not in screen_of(pit_boss_paula, siete_table)
    confirmed = client_for(dealer_dora).post(endpoint.group(1), {}, format="json")
    assert confirmed.status_code == 201, confirmed.json()
    assert 'id="awaiting"' not in screen_of(dealer_dora, siete_table)


def test_the_opening_count_of_a_closed_table_waits_for_its_dealer(
    client_for: Any, dealer_dora: User, pit_boss_paula: User
) -> None:
    table = table_create(name="SyM-O", game="siete_y_medio", seat_count=6, settings=SIETE_SETTINGS)
    dealer_assign(table_id=table.pk, dealer=dealer_dora, by=pit_boss_paula)
    custody.custody_open(table_id=table.pk, pit_boss=pit_boss_paula, chips=OPENING_CHIPS)
    shown = screen_of(dealer_dora, table)
    assert 'data-awaiting="opener"' in shown
    endpoint = re.search(r'data-endpoint="([^"]+/opener/confirm)"', shown)
    assert endpoint is not None
    confirmed = client_for(dealer_dora).post(endpoint.group(1), {}, format="json")
    assert confirmed.status_code == 201, confirmed.json()
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN
    assert 'id="awaiting"' not in screen_of(dealer_dora, table)


def test_a_fill_the_cage_issued_waits_for_the_dealers_confirmation(
    client_for: Any,
    dealer_dora: User,
    pit_boss_paula: User,
    cashier_carmen: User,
    siete_table: Table,
) -> None:
    requested = slips.slip_request(
        slip_type="fill", table_id=siete_table.pk, amounts={"25": 500}, pit_boss=pit_boss_paula
    )
    number = int(requested.payload["slip_number"])
    # Requested only: the cage has not signed it, so nothing waits for the dealer yet.
    assert "data-awaiting" not in screen_of(dealer_dora, siete_table)
    slips.slip_cage_sign(slip_type="fill", slip_number=number, cashier=cashier_carmen)
    shown = screen_of(dealer_dora, siete_table)
    assert f'data-awaiting="fill" data-slip="{number}"' in shown
    assert re.search(r'data-denomination="25"><td>25</td><td>20</td><td>500</td>', shown)
    endpoint = re.search(r'data-endpoint="([^"]+/confirm)"', shown)
    assert endpoint is not None
    confirmed = client_for(dealer_dora).post(endpoint.group(1), {}, format="json")
    assert confirmed.status_code == 201, confirmed.json()
    assert "data-awaiting" not in screen_of(dealer_dora, siete_table)
