"""A third game plugs into the shoe at its binding alone: nothing in devices/ names it."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from shoe_floor_harness import fast_password_hashing

from devices.codec.cards import DeckType, card_byte
from devices.codec.messages import CardDrawn, Hello
from devices.django_sink import DjangoLinkSink
from devices.registry.enrollment import binding_approve, binding_request, device_enroll
from tables import games
from tables.models import Table, TableEvent
from tables.services.floor import round_open, table_create, table_set_status
from tests.tables.tally_game import BINDING, Add

pytestmark = pytest.mark.django_db
__all__ = ["fast_password_hashing"]
FIRMWARE = hashlib.sha256(b"simulated shoe firmware 1.0.0").digest()
RANKS = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}


def tally_card(state: Any, card: str, physical_id: str | None, source: str) -> Add:
    """A card drawn adds its rank to the tally (an ace one, a face card ten)."""
    rank = card[0]
    return Add(RANKS.get(rank) or int(rank))


@pytest.fixture
def card_tally() -> Iterator[games.GameBinding]:
    binding = dataclasses.replace(
        BINDING, key="card_tally", shoe_deck="french", shoe_card_command=tally_card
    )
    games.register(binding)
    yield binding
    games.unregister(binding.key)


def test_a_third_game_is_dealt_by_the_shoe_through_its_binding(
    card_tally: games.GameBinding, pit_boss_paula: User, pit_boss_pedro: User
) -> None:
    table = table_create(name="CT-1", game="card_tally", seat_count=1, settings={"max_add": 20})
    table_set_status(table_id=table.pk, status=Table.Status.OPEN, actor=pit_boss_paula)
    device = device_enroll(serial="SIM-CT-1", port_url="loop://")
    binding = binding_request(device_id=device.pk, table_id=table.pk, by=pit_boss_paula)
    binding_approve(binding_id=binding.pk, by=pit_boss_pedro)
    round_open(table_id=table.pk, actor=pit_boss_paula)
    sink = DjangoLinkSink("SIM-CT-1")
    sink.device_hello(Hello("SIM-CT-1", "SIM-SHOE", "1.0.0", FIRMWARE), 7)
    for seq, code in enumerate(("7h", "Kd", "As"), start=1):
        drawn = CardDrawn(seq, card_byte(DeckType.FRENCH, code), 3, 0, bytes([seq]) * 7)
        assert sink.commit(7, seq, drawn) == "accepted"
    added = TableEvent.objects.filter(table=table, type="tally.added").order_by("seq")
    assert [row.payload["amount"] for row in added] == [7, 10, 1]
    assert all(row.source == "shoe" for row in added)
