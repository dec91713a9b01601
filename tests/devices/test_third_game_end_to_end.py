"""A third game plugs in at its binding alone: registered here, in the test, it gets its own
documented command endpoints from the registry and is dealt by a simulated shoe, with no
change in devices/, reports/ or the API for it."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import clear_url_caches
from shoe_floor_harness import fast_password_hashing

from devices.codec.cards import DeckType, card_byte
from devices.codec.messages import CardDrawn, Hello
from devices.django_sink import DjangoLinkSink
from devices.registry.enrollment import binding_approve, binding_request, device_enroll
from tables import games
from tables.engine.command_json import CommandShape
from tables.models import Table, TableEvent
from tables.services.floor import dealer_assign, table_create, table_set_status
from tests.tables.tally_game import BINDING, Add, CloseRound, VoidRound

pytestmark = pytest.mark.django_db
__all__ = ["fast_password_hashing"]
FIRMWARE = hashlib.sha256(b"simulated shoe firmware 1.0.0").digest()
RANKS = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}


def tally_card(state: Any, card: str, physical_id: str | None, source: str) -> Add:
    return Add(RANKS.get(card[0]) or int(card[0]))


def rebuild_urls() -> None:
    """The routes are built from the registry when the URLconf loads: load it again."""
    import casino.urls
    import tables.api.urls

    importlib.reload(tables.api.urls)
    importlib.reload(casino.urls)
    clear_url_caches()


@pytest.fixture
def third_game() -> Iterator[games.GameBinding]:
    binding = dataclasses.replace(
        BINDING,
        key="card_tally",
        commands={
            "add": CommandShape(Add),
            "close": CommandShape(CloseRound),
            "void_round": CommandShape(VoidRound),
        },
        desk_commands=frozenset({"void_round"}),
        shoe_deck="french",
        shoe_card_command=tally_card,
    )
    games.register(binding)
    rebuild_urls()
    yield binding
    games.unregister(binding.key)
    rebuild_urls()


def test_a_third_game_is_played_through_its_own_endpoints_and_dealt_by_a_shoe(
    third_game: games.GameBinding,
    client_for: Any,
    dealer_dora: User,
    pit_boss_paula: User,
    pit_boss_pedro: User,
) -> None:
    table = table_create(name="CT-9", game="card_tally", seat_count=1, settings={"max_add": 40})
    table_set_status(table_id=table.pk, status=Table.Status.OPEN, actor=pit_boss_paula)
    dealer_assign(table_id=table.pk, dealer=dealer_dora, by=pit_boss_paula)
    dealer = client_for(dealer_dora)
    assert dealer.post(f"/api/tables/{table.pk}/rounds").status_code == 201

    added = dealer.post(f"/api/tables/{table.pk}/card_tally/add", {"amount": 4}, format="json")
    assert added.status_code == 201, added.json()
    assert added.json()["state"]["total"] == 4
    bad = dealer.post(f"/api/tables/{table.pk}/card_tally/add", {"amount": "4"}, format="json")
    assert bad.status_code == 422
    assert bad.json()["code"] == "bad_amount"  # the game's own parser, as its binding says
    assert dealer.post(f"/api/tables/{table.pk}/card_tally/void-round", {}).status_code == 404

    device = device_enroll(serial="SIM-CT-9", port_url="loop://")
    shoe = binding_request(device_id=device.pk, table_id=table.pk, by=pit_boss_paula)
    binding_approve(binding_id=shoe.pk, by=pit_boss_pedro)
    sink = DjangoLinkSink("SIM-CT-9")
    sink.device_hello(Hello("SIM-CT-9", "SIM-SHOE", "1.0.0", FIRMWARE), 7)
    for seq, code in enumerate(("7h", "Kd"), start=1):
        drawn = CardDrawn(seq, card_byte(DeckType.FRENCH, code), 3, 0, bytes([seq]) * 7)
        assert sink.commit(7, seq, drawn) == "accepted"
    amounts = TableEvent.objects.filter(table=table, type="tally.added").order_by("seq")
    assert [row.payload["amount"] for row in amounts] == [4, 7, 10]

    schema = client_for(pit_boss_paula).get(
        "/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
    )
    assert "/api/tables/{table_id}/card_tally/add" in schema.json()["paths"]
