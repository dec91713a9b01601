"""A third game plugs in at its binding alone: registered here, in the test, it gets its own
documented command endpoints from the registry and is dealt by a simulated shoe, with no
change in devices/, reports/ or the API for it."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import clear_url_caches
from django.utils import timezone
from shoe_floor_harness import fast_password_hashing

from devices.codec.cards import DeckType, card_byte
from devices.codec.messages import CardDrawn, Hello
from devices.django_sink import DjangoLinkSink
from devices.registry.enrollment import binding_approve, binding_request, device_enroll
from reports.services.storing import produce_report
from reports.shifts import floor_clock
from tables import games
from tables.engine.command_json import CommandShape
from tables.models import Table, TableEvent
from tables.services.commands import table_command
from tables.services.floor import dealer_assign, round_open, table_create, table_set_status
from tests.reports.custody_floor import close_books, open_books
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


def play(table: Table, command: Any, dealer: User) -> None:
    table_command(table_id=table.pk, command=command, actor=dealer, source="tablet")


def test_a_third_games_shift_closes_into_a_table_shift_report(
    third_game: games.GameBinding, dealer_dora: User, pit_boss_paula: User
) -> None:
    """The shift of a game neither `devices/` nor `reports/` knows: its books opened and
    closed, rounds played through its endpoints, and the table shift report built by the same
    job as every game's, with the game's own key and label from its binding."""
    clock = floor_clock()
    key = clock.last_ended(timezone.now())
    table = table_create(name="CT-10", game="card_tally", seat_count=1, settings={"max_add": 40})
    chips = {"100": 10}
    open_books(
        table.pk,
        dealer=dealer_dora,
        pit_boss=pit_boss_paula,
        chips=chips,
        occurred_at=clock.bounds(key)[0] + timedelta(minutes=5),
    )
    for amounts in ((4, 9), (12,)):
        round_open(table_id=table.pk, actor=dealer_dora)
        for amount in amounts:
            table_command(
                table_id=table.pk, command=Add(amount), actor=dealer_dora, source="tablet"
            )
        table_command(table_id=table.pk, command=CloseRound(), actor=dealer_dora, source="tablet")
    close_books(table.pk, dealer=dealer_dora, pit_boss=pit_boss_paula, chips=chips)

    report = produce_report("table_shift", key, table=table)
    document = report.document
    assert document["table"]["game"] == "card_tally"
    assert document["table"]["report_rows"] == {
        "figures": list(third_game.report_figures),
        "rounds": list(third_game.report_round_rows),
    }
    assert document["rounds"]["hands_played"] == 2
    assert document["rounds"]["payouts_by_class"] == {}  # its binding names no paid class
    assert document["custody"]["opener"]["dealer"] == "dora"
    assert document["custody"]["closer"]["total"] == 1000
    assert {"role": "dealer", "name": "dora"} in document["signatures"]
