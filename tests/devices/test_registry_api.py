"""The device registry through its API: enrol, four-eyes binding, one shoe per table, retire,
reactivate, the misread entry and approval, and who may do what."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from shoe_floor_harness import fast_password_hashing

from devices.codec.cards import DeckType, card_byte
from devices.codec.messages import CardDrawn, CardMisread, Hello
from devices.django_sink import DjangoLinkSink
from devices.models import Device, DeviceBinding, MisreadHold
from devices.registry.enrollment import device_quarantine
from tables import roles
from tables.engine import siete
from tables.models import Table, TableEvent
from tables.services.commands import table_command
from tables.services.floor import dealer_assign, table_create, table_set_status
from tests.conftest import make_user

pytestmark = pytest.mark.django_db
__all__ = ["fast_password_hashing"]


@pytest.fixture
def table(pit_boss_paula: User, dealer_dora: User) -> Table:
    table = table_create(name="SYM-21", game="siete_y_medio", seat_count=6)
    table_set_status(table_id=table.pk, status=Table.Status.OPEN, actor=pit_boss_paula)
    dealer_assign(table_id=table.pk, dealer=dealer_dora, by=pit_boss_paula)
    return table


def post(client: Any, url: str, expect: int, **data: Any) -> dict[str, Any]:
    response = client.post(url, data, format="json")
    assert response.status_code == expect, response.json()
    return dict(response.json())


def enrolled(client: Any, table: Table, serial: str = "SIM-SYM-21") -> dict[str, Any]:
    return post(
        client, "/api/devices/", 201, serial=serial, port_url="loop://", key="k", table_id=table.pk
    )


def test_a_binding_is_approved_by_a_pit_boss_other_than_the_requester(
    client_for: Any, table: Table, pit_boss_paula: User, pit_boss_pedro: User
) -> None:
    paula, pedro = client_for(pit_boss_paula), client_for(pit_boss_pedro)
    device = enrolled(paula, table)
    assert (device["status"], device["keyed"]) == ("pending", True)
    assert "key" not in device
    binding = device["binding"]
    assert (binding["state"], binding["requested_by"]) == ("pending", "paula")
    url = f"/api/devices/bindings/{binding['id']}/approve"
    refused = post(paula, url, 403)
    assert refused["code"] == "own_request"
    approved = post(pedro, url, 200)
    assert (approved["state"], approved["approved_by"]) == ("approved", "pedro")
    assert Device.objects.get(serial="SIM-SYM-21").status == Device.Status.ACTIVE
    listed = paula.get("/api/devices/").json()
    assert [d["serial"] for d in listed] == ["SIM-SYM-21"]
    assert listed[0]["link_quality"]["frames_accepted"] == 0


def test_only_one_shoe_is_bound_to_a_table(
    client_for: Any, table: Table, pit_boss_paula: User, pit_boss_pedro: User
) -> None:
    paula, pedro = client_for(pit_boss_paula), client_for(pit_boss_pedro)
    for serial in ("SHOE-A", "SHOE-B"):
        enrolled(paula, table, serial)
    first, second = DeviceBinding.objects.order_by("pk")
    post(pedro, f"/api/devices/bindings/{first.pk}/approve", 200)
    refused = post(pedro, f"/api/devices/bindings/{second.pk}/approve", 409)
    assert refused["code"] == "table_has_a_shoe"


def test_a_retired_shoe_loses_its_binding_and_cannot_be_bound_again(
    client_for: Any, table: Table, pit_boss_paula: User, pit_boss_pedro: User
) -> None:
    paula, pedro = client_for(pit_boss_paula), client_for(pit_boss_pedro)
    device = enrolled(paula, table)
    post(pedro, f"/api/devices/bindings/{device['binding']['id']}/approve", 200)
    retired = post(pedro, f"/api/devices/{device['id']}/retire", 200, reason="cracked lens")
    assert (retired["status"], retired["binding"]) == ("retired", None)
    again = post(paula, f"/api/devices/{device['id']}/bindings", 409, table_id=table.pk)
    assert again["code"] == "device_retired"


def test_a_quarantined_shoe_is_reactivated_by_a_pit_boss(
    client_for: Any, table: Table, pit_boss_paula: User, pit_boss_pedro: User
) -> None:
    paula = client_for(pit_boss_paula)
    device = enrolled(paula, table)
    post(paula, f"/api/devices/{device['id']}/reactivate", 409)
    device_quarantine(device_id=device["id"])
    assert post(paula, f"/api/devices/{device['id']}/reactivate", 200)["status"] == "active"


def test_dealers_and_auditors_cannot_change_the_registry(
    client_for: Any, table: Table, dealer_dora: User, auditor_alba: User
) -> None:
    post(client_for(dealer_dora), "/api/devices/", 403, serial="X-1")
    post(client_for(auditor_alba), "/api/devices/", 403, serial="X-1")
    assert client_for(auditor_alba).get("/api/devices/").status_code == 200
    assert client_for(dealer_dora).get("/api/devices/").status_code == 403


def test_a_misread_card_is_entered_by_the_dealer_and_approved_by_a_pit_boss(
    client_for: Any,
    table: Table,
    dealer_dora: User,
    pit_boss_paula: User,
    pit_boss_pedro: User,
) -> None:
    device = enrolled(client_for(pit_boss_paula), table)
    post(
        client_for(pit_boss_pedro), f"/api/devices/bindings/{device['binding']['id']}/approve", 200
    )
    table_command(table_id=table.pk, command=siete.StartRound(), actor=dealer_dora, source="tablet")
    command = siete.PlaceWager(box=1, amount=10)
    table_command(table_id=table.pk, command=command, actor=dealer_dora, source="tablet")
    sink = DjangoLinkSink("SIM-SYM-21")
    sink.device_hello(Hello("SIM-SYM-21", "SIM-SHOE", "1.0.0", b"\x01" * 32), 1)
    assert sink.commit(1, 1, CardMisread(1, 0x01, 0)) == "held"
    assert (
        sink.commit(1, 2, CardDrawn(2, card_byte(DeckType.SPANISH, "3B"), 3, 0, b"\x09")) == "held"
    )
    hold = MisreadHold.objects.get()
    other_dealer = make_user("dan", roles.DEALER)
    post(client_for(other_dealer), f"/api/devices/holds/{hold.pk}/entry", 403, card="5O")
    post(client_for(pit_boss_paula), f"/api/devices/holds/{hold.pk}/approve", 409)
    post(client_for(dealer_dora), f"/api/devices/holds/{hold.pk}/entry", 200, card="5O")
    post(client_for(dealer_dora), f"/api/devices/holds/{hold.pk}/approve", 403)
    post(client_for(pit_boss_paula), f"/api/devices/holds/{hold.pk}/approve", 200)
    dealt = TableEvent.objects.filter(table=table, type="card.dealt").order_by("seq")
    assert [(row.payload["card"], row.payload["hand"]) for row in dealt] == [
        ("5O", "box"), ("3B", "bank")
    ]  # fmt: skip
    report = client_for(pit_boss_paula).get(f"/api/devices/{device['id']}").json()
    # Both cards are face down (the box's and the bank's) in a live round: listed, not named.
    assert [(c["draw_index"], c["card"]) for c in report["cards"]] == [(1, None), (2, None)]
    assert report["cards"][0]["entered"] is True
    assert report["open_holds"] == []


def test_the_admin_lists_shoes_without_their_keys(client: Any, table: Table) -> None:
    admin = User.objects.create_superuser("root", password="root-pw")
    Device.objects.create(serial="SHOE-K", key="very-secret", enrolled_at=table.created_at)
    client.force_login(admin)
    page = client.get("/admin/devices/device/")
    assert page.status_code == 200
    detail = client.get(f"/admin/devices/device/{Device.objects.get().pk}/change/")
    assert detail.status_code == 200
    assert b"very-secret" not in detail.content
