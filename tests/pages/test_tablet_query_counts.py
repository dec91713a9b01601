"""A tap re-reads the tablet's fragment after its POST, and every card re-reads it again: the
queries of both are counted here so they cannot grow unseen (their time is measured in
bench/tablet_latency.py, never asserted)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tables.models import Table
from tests.api.game_clients import SIETE_SETTINGS, open_table

pytestmark = pytest.mark.django_db

# Session, user, table, roles, the assignment and the feed status (read once for the policy,
# the shoe line and the hold banner), the dealer's name, the shoe, own corrections, the round's
# events and the custody slips awaiting the dealer.
FRAGMENT_QUERIES = 11
# Session, user, roles, table; the idempotency record read and written (with its savepoints);
# the lock, the engine's snapshot and events (cold: a fresh process has not cached the state),
# the policy facts, round, event, head, projection, snapshot.
COMMAND_QUERIES = 25


@pytest.fixture
def siete_table(dealer_dora: User, pit_boss_paula: User) -> Table:
    return open_table("SyM-Q", "siete_y_medio", SIETE_SETTINGS, dealer_dora, pit_boss_paula)


@pytest.fixture
def dora_tablet(dealer_dora: User) -> Client:
    client = Client()
    client.force_login(dealer_dora)
    return client


def tap(
    client: Client, table: Table, key: str, command: str, door: str = "api", **data: Any
) -> Any:
    """A command sent at the API's door (`api`), or at the tablet's own (`tablet`), which
    answers with the screen after it."""
    return client.post(
        f"/{door}/tables/{table.pk}/commands",
        json.dumps({"type": command, "data": data}),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key,
        HTTP_X_TABLET_TIME="2026-12-02T14:00:00Z",
    )


def test_the_fragment_is_read_in_a_bounded_number_of_queries(
    django_assert_max_num_queries: Any, dora_tablet: Client, siete_table: Table
) -> None:
    tap(dora_tablet, siete_table, "tap-1", "place_wager", box=1, amount=20)
    with django_assert_max_num_queries(FRAGMENT_QUERIES):
        response = dora_tablet.get(f"/tablet/tables/{siete_table.pk}/state")
    assert response.status_code == 200
    assert f'data-seq="{Table.objects.get(pk=siete_table.pk).head_seq}"' in response.text


def test_a_tap_is_answered_in_a_bounded_number_of_queries(
    django_assert_max_num_queries: Any, dora_tablet: Client, siete_table: Table
) -> None:
    with django_assert_max_num_queries(COMMAND_QUERIES):
        response = tap(dora_tablet, siete_table, "tap-1", "place_wager", box=1, amount=20)
    assert response.status_code == 201
    assert max(event["seq"] for event in response.json()["events"]) > 0


def test_a_refused_tap_is_answered_in_fewer_queries_than_an_applied_one(
    django_assert_max_num_queries: Any, dora_tablet: Client, siete_table: Table
) -> None:
    with django_assert_max_num_queries(COMMAND_QUERIES):
        response = tap(dora_tablet, siete_table, "tap-1", "place_wager", box=1, amount=1)
    assert response.status_code in (400, 409, 422)


def test_the_tablets_own_door_answers_with_the_screen_after_the_tap(
    django_assert_max_num_queries: Any, dora_tablet: Client, siete_table: Table
) -> None:
    # One request instead of a POST and a GET: the command's queries and the fragment's,
    # less the session and the user read once.
    with django_assert_max_num_queries(COMMAND_QUERIES + FRAGMENT_QUERIES - 2):
        response = tap(
            dora_tablet, siete_table, "tap-1", "place_wager", door="tablet", box=1, amount=20
        )
    assert response.status_code == 201
    head = max(event["seq"] for event in response.json()["events"])
    assert f'data-seq="{head}"' in response.json()["fragment"]
    assert Table.objects.get(pk=siete_table.pk).head_seq == head


def test_a_refusal_at_the_tablets_door_is_the_apis_and_carries_no_screen(
    dora_tablet: Client, siete_table: Table
) -> None:
    before = Table.objects.get(pk=siete_table.pk).head_seq
    response = tap(dora_tablet, siete_table, "tap-1", "place_wager", door="tablet", box=1, amount=1)
    api = tap(dora_tablet, siete_table, "tap-2", "place_wager", box=1, amount=1)
    assert (response.status_code, response.json()["code"]) == (api.status_code, api.json()["code"])
    assert "fragment" not in response.json()
    assert Table.objects.get(pk=siete_table.pk).head_seq == before


def test_a_signed_out_tap_is_refused_in_json_not_sent_to_the_login_page(
    siete_table: Table,
) -> None:
    response = tap(Client(), siete_table, "tap-1", "place_wager", door="tablet", box=1, amount=20)
    assert response.status_code in (401, 403)
    assert "fragment" not in response.json()
