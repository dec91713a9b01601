"""The pages stack: sign-in, the landing by role, the live socket and its notices."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from casino.asgi import application
from tables.live.groups import table_group
from tables.models import Table
from tables.services import live
from tests.api.game_clients import SIETE_SETTINGS, open_table
from tests.live_listener import GroupListener

pytestmark = pytest.mark.django_db


@pytest.fixture
def siete_table(dealer_dora: User, pit_boss_paula: User) -> Table:
    return open_table("SyM-P", "siete_y_medio", SIETE_SETTINGS, dealer_dora, pit_boss_paula)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_sign_in_page_has_a_csrf_protected_form() -> None:
    response = Client(enforce_csrf_checks=True).get("/login/")
    assert response.status_code == 200
    assert b"csrfmiddlewaretoken" in response.content


def test_a_dealer_signs_in_and_lands_on_the_tablet_of_their_table(
    dealer_dora: User, siete_table: Table
) -> None:
    client = Client()
    signed = client.post("/login/", {"username": "dora", "password": "dora-pw"})
    assert signed.status_code == 302
    landed = client.get("/", follow=True)
    assert landed.redirect_chain[-1][0] == f"/tablet/tables/{siete_table.pk}/"
    assert b'data-live-socket="/ws/tables/' in landed.content


def test_an_anonymous_visitor_is_sent_to_sign_in() -> None:
    response = Client().get("/tablet/")
    assert response.status_code == 302
    assert response["Location"].startswith("/login/")


def test_a_dealer_may_not_open_another_dealers_table(dealer_dan: User, siete_table: Table) -> None:
    response = signed_in(dealer_dan).get(f"/tablet/tables/{siete_table.pk}/")
    assert response.status_code == 403
    assert b"data-command" not in response.content


def test_a_dealer_without_a_table_is_told_to_ask_the_pit_boss(dealer_dan: User) -> None:
    response = signed_in(dealer_dan).get("/tablet/")
    assert response.status_code == 200
    assert b"pit boss" in response.content


def test_the_language_picker_switches_the_page_to_spanish(
    dealer_dora: User, siete_table: Table
) -> None:
    client = signed_in(dealer_dora)
    client.post("/i18n/setlang/", {"language": "es", "next": "/tablet/"})
    page = client.get(f"/tablet/tables/{siete_table.pk}/")
    assert b'lang="es"' in page.content
    assert b"Apostar" in page.content


def test_the_browsers_language_is_the_default(dealer_dora: User, siete_table: Table) -> None:
    page = signed_in(dealer_dora).get(
        f"/tablet/tables/{siete_table.pk}/", HTTP_ACCEPT_LANGUAGE="pt-BR,pt;q=0.9"
    )
    assert b'lang="pt-br"' in page.content


async def _connect(user: User | None, path: str) -> tuple[bool, Any]:
    communicator = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://127.0.0.1")]
    )
    if user is not None:
        communicator.scope["user"] = user
    connected, code = await communicator.connect()
    return connected, communicator if connected else code


def test_a_change_notice_reaches_the_tables_socket_with_only_the_table_and_seq(
    dealer_dora: User, siete_table: Table
) -> None:
    async def scenario() -> dict[str, Any]:
        connected, communicator = await _connect(dealer_dora, f"/ws/tables/{siete_table.pk}/")
        assert connected
        layer = get_channel_layer()
        assert layer is not None
        await layer.group_send(
            table_group(siete_table.pk),
            {"type": "table.changed", "table": siete_table.pk, "seq": 9},
        )
        message = await communicator.receive_json_from(timeout=5)
        await communicator.disconnect()
        return dict(message)

    assert async_to_sync(scenario)() == {"type": "table.changed", "table": siete_table.pk, "seq": 9}


def test_an_anonymous_socket_is_refused(siete_table: Table) -> None:
    async def scenario() -> bool:
        connected, _ = await _connect(None, f"/ws/tables/{siete_table.pk}/")
        return connected

    assert async_to_sync(scenario)() is False


def test_publish_sends_the_notice_to_the_table_and_floor_groups(siete_table: Table) -> None:
    listeners = [GroupListener("floor"), GroupListener(table_group(siete_table.pk))]
    try:
        live.publish(siete_table.pk, {"table": siete_table.pk, "seq": 4, "types": ["card.dealt"]})
        heard = [listener.next_message(timeout=5) for listener in listeners]
    finally:
        for listener in listeners:
            listener.leave()
    assert heard == [{"type": "table.changed", "table": siete_table.pk, "seq": 4}] * 2
