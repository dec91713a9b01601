"""The tablet's buttons come from the legal commands of the moment, for this caller only."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tables import selectors
from tables.models import Alert, Table, TableEvent
from tables.pages.actions import actions_for
from tests.api.game_clients import SIETE_SETTINGS, STUD_SETTINGS, Tablet, open_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def siete_table(dealer_dora: User, pit_boss_paula: User) -> Table:
    return open_table("SyM-A", "siete_y_medio", SIETE_SETTINGS, dealer_dora, pit_boss_paula)


def commands_of(user: User, table: Table) -> list[str]:
    view = selectors.table_live_view(table)
    return [action.command for action in actions_for(user, table, view)]


def test_between_rounds_the_dealer_may_start_a_round_or_take_wagers(
    dealer_dora: User, siete_table: Table
) -> None:
    commands = commands_of(dealer_dora, siete_table)
    assert "start_round" in commands
    assert commands.count("place_wager") == 6
    assert "void_round" not in commands  # a correction, never a button


def test_another_dealer_gets_no_buttons(dealer_dan: User, siete_table: Table) -> None:
    assert commands_of(dealer_dan, siete_table) == []


def test_in_a_players_turn_only_that_boxs_actions_are_offered(
    client_for: Any, dealer_dora: User, siete_table: Table
) -> None:
    tablet = Tablet(client_for(dealer_dora), siete_table, "siete")
    tablet.send("place_wager", box=2, amount=20)
    tablet.send("record_card", card="3O")
    tablet.send("record_card", card="4C")
    view = selectors.table_live_view(siete_table)
    actions = actions_for(dealer_dora, siete_table, view)
    assert {a.box for a in actions if a.box is not None} == {2}
    assert {"stand", "request_draw", "declare_bust"} <= {a.command for a in actions}


def test_the_pay_button_carries_the_settled_net(
    client_for: Any, dealer_dora: User, siete_table: Table
) -> None:
    tablet = Tablet(client_for(dealer_dora), siete_table, "siete")
    tablet.send("place_wager", box=1, amount=20)
    tablet.send("record_card", card="7O")
    tablet.send("record_card", card="5C")
    tablet.send("request_draw", box=1, face_down=False)
    tablet.send("record_card", card="12O")
    if selectors.table_live_view(siete_table)["turn"] == {"hand": "box", "box": 1}:
        tablet.send("stand", box=1)
    tablet.send("reveal_bank")
    view = selectors.table_live_view(siete_table)
    pay = [a for a in actions_for(dealer_dora, siete_table, view) if a.command == "record_payout"]
    assert [(a.data["box"], a.data["amount"]) for a in pay] == [(1, 40)]


def test_stud_offers_the_hand_start_through_the_round_endpoint(
    dealer_dora: User, pit_boss_paula: User
) -> None:
    table = open_table("Stud-A", "seven_card_stud", STUD_SETTINGS, dealer_dora, pit_boss_paula)
    view = selectors.table_live_view(table)
    (start,) = actions_for(dealer_dora, table, view)
    assert (start.command, start.endpoint) == ("start_hand", "rounds")


def test_the_tablet_page_never_holds_a_face_down_card(
    client_for: Any, dealer_dora: User, siete_table: Table
) -> None:
    tablet = Tablet(client_for(dealer_dora), siete_table, "siete")
    tablet.send("place_wager", box=1, amount=20)
    tablet.send("record_card", card="6E")  # entered face down: known to the server only
    page = Client()
    page.force_login(dealer_dora)
    html = page.get(f"/tablet/tables/{siete_table.pk}/").content.decode()
    assert 'data-card="6E"' not in html
    assert 'data-back="1"' in html


def test_the_tablets_clock_is_stored_and_a_skewed_clock_alerts_the_pit(
    client_for: Any, dealer_dora: User, siete_table: Table
) -> None:
    client = client_for(dealer_dora)
    url = f"/api/tables/{siete_table.pk}/commands"
    tapped = "2026-01-01T10:00:00+00:00"
    body = {"type": "place_wager", "data": {"box": 1, "amount": 20}}
    answer = client.post(
        url,
        body,
        format="json",
        HTTP_X_TABLET_TIME=tapped,
        HTTP_X_TABLET_CLOCK="2026-01-01T10:00:05+00:00",  # far from the server's now
    )
    assert answer.status_code == 201, answer.json()
    wager = TableEvent.objects.get(table=siete_table, type="wager.placed")
    assert wager.occurred_at.isoformat() == tapped
    assert wager.recorded_at > wager.occurred_at
    assert list(Alert.objects.filter(table=siete_table).values_list("code", flat=True)) == [
        "tablet_clock_skew"
    ]


def test_a_stud_hand_opened_from_the_tablet_keeps_the_tablets_time(
    client_for: Any, dealer_dora: User, pit_boss_paula: User
) -> None:
    table = open_table("Stud-T", "seven_card_stud", STUD_SETTINGS, dealer_dora, pit_boss_paula)
    tablet = Tablet(client_for(dealer_dora), table, "stud")
    tablet.post("seats/sit", seat=1, player="ana", buy_in=500)
    tablet.post("seats/sit", seat=2, player="bruno", buy_in=500)
    tapped = "2026-01-01T10:00:00+00:00"
    answer = tablet.client.post(
        f"/api/tables/{table.pk}/rounds",
        format="json",
        HTTP_X_TABLET_TIME=tapped,
        HTTP_X_TABLET_CLOCK="2026-01-01T10:00:05+00:00",  # far from the server's now
    )
    assert answer.status_code == 201, answer.json()
    opened = TableEvent.objects.filter(table=table, type="hand.started").get()
    assert opened.occurred_at.isoformat() == tapped
    assert opened.recorded_at > opened.occurred_at
    assert list(Alert.objects.filter(table=table).values_list("code", flat=True)) == [
        "tablet_clock_skew"
    ]
