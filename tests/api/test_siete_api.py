"""A Siete y Medio round played through the dealer's REST API, end to end."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User

from tables.engine import siete
from tables.models import Alert, Round, Table, TableEvent
from tables.services.commands import table_command
from tables.verification import verify_table
from tests.api.game_clients import SIETE_SETTINGS, Tablet, open_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def siete_table(dealer_dora: User, pit_boss_paula: User) -> Table:
    return open_table("SyM-T", "siete_y_medio", SIETE_SETTINGS, dealer_dora, pit_boss_paula)


def tablet_at(client: Any, table: Table) -> Tablet:
    return Tablet(client, table, "siete")


def test_a_full_round_through_the_api(
    client_for: Any, dealer_dora: User, siete_table: Table, auditor_alba: User
) -> None:
    tablet = tablet_at(client_for(dealer_dora), siete_table)
    tablet.send("start_round")
    tablet.send("place_wager", box=1, amount=20)
    tablet.send("place_wager", box=2, amount=10)
    for _ in range(3):  # box 1, box 2, the bank: face down, unknown to the tablet
        tablet.send("record_card", card=None)
    assert tablet.state()["turn"] == {"hand": "box", "box": 1}
    tablet.send("reveal", box=1, card="7O")
    tablet.send("request_draw", box=1, face_down=False)
    tablet.send("record_card", card="12O")  # Siete y Medio Real: stands at once
    tablet.send("stand", box=2)
    tablet.send("reveal_bank", card="5C")  # the bank stands at 5
    assert tablet.state()["phase"] == "settling"
    tablet.send("identify_card", box=2, card="4B")
    state = tablet.state()
    assert state["phase"] == "settled"
    results = {result["box"]: result for result in state["results"]}
    assert (results[1]["outcome"], results[1]["hand_class"]) == ("win", "real")
    assert results[1]["net"] == 40
    assert results[2]["net"] == -10
    tablet.send("record_payout", box=1, amount=40)
    tablet.send("record_payout", box=2, amount=-10)
    assert not Alert.objects.exists()
    closed = tablet.client.post(f"/api/tables/{siete_table.pk}/rounds/close")
    assert closed.status_code == 200
    assert Round.objects.get(table=siete_table).status == Round.Status.CLOSED
    assert verify_table(siete_table).ok
    auditor = client_for(auditor_alba)
    events = auditor.get(f"/api/tables/{siete_table.pk}/events").json()
    assert "12O" in json.dumps(events)
    record = auditor.get(f"/api/tables/{siete_table.pk}/rounds/1")
    assert record.status_code == 200
    assert "4B" in json.dumps(record.json())
    assert tablet.client.get(f"/api/tables/{siete_table.pk}/rounds/1").status_code == 403


def test_a_payout_mismatch_raises_an_alert(
    client_for: Any, dealer_dora: User, siete_table: Table
) -> None:
    tablet = tablet_at(client_for(dealer_dora), siete_table)
    tablet.send("place_wager", box=1, amount=20)
    tablet.send("record_card", card="3O", face_up=False)
    tablet.send("record_card", card="4C", face_up=False)
    tablet.send("reveal", box=1)
    tablet.send("stand", box=1)
    tablet.send("reveal_bank")
    tablet.send("record_card", card="1E")  # the bank draws at 4 and stands at 5
    tablet.send("record_payout", box=1, amount=20)  # should have collected the stake
    assert [alert.code for alert in Alert.objects.all()] == ["payout_mismatch"]


def test_face_down_cards_are_never_shown_live(
    client_for: Any, dealer_dora: User, pit_boss_paula: User, siete_table: Table,
    auditor_alba: User,
) -> None:  # fmt: skip
    tablet = tablet_at(client_for(dealer_dora), siete_table)
    tablet.send("place_wager", box=1, amount=20)
    for card in ("6E", "11B"):  # read by the shoe: known to the engine only
        table_command(
            table_id=siete_table.pk,
            command=siete.RecordCard(card, source="shoe"),
            actor=None,
            source=TableEvent.Source.SHOE,
        )
    for client in (tablet.client, client_for(pit_boss_paula)):
        body = json.dumps(client.get(f"/api/tables/{siete_table.pk}").json())
        assert "6E" not in body
        assert "11B" not in body
    auditor = client_for(auditor_alba)
    assert auditor.get(f"/api/tables/{siete_table.pk}/rounds/1").status_code == 403
    assert "6E" not in json.dumps(auditor.get(f"/api/tables/{siete_table.pk}/events").json())
    appended = tablet.send("request_draw", box=1, face_down=False)
    assert "6E" not in json.dumps(appended)


@pytest.mark.parametrize(
    ("command", "data", "status", "code"),
    [
        ("place_wager", {"box": 1, "amount": 5}, 422, "stake_below_minimum"),
        ("place_wager", {"box": 1, "amount": 1000}, 422, "stake_above_maximum"),
        ("place_wager", {"box": 1, "amount": 12}, 422, "stake_not_chip_multiple"),
        ("place_wager", {"box": 9, "amount": 10}, 422, "invalid_box"),
        ("place_wager", {"box": "one", "amount": 10}, 422, "invalid_field"),
        ("place_wager", {"box": 1}, 422, "missing_field"),
        ("record_card", {"card": "8O"}, 422, "invalid_card"),
        ("stand", {"box": 1}, 409, "deal_not_complete"),
    ],
)
def test_bad_input_is_refused_with_a_code_and_nothing_recorded(
    client_for: Any, dealer_dora: User, siete_table: Table, command: str, data: dict[str, Any],
    status: int, code: str,
) -> None:  # fmt: skip
    tablet = tablet_at(client_for(dealer_dora), siete_table)
    tablet.send("start_round")
    before = TableEvent.objects.filter(table=siete_table).count()
    url = f"/api/tables/{siete_table.pk}/siete/{command.replace('_', '-')}"
    response = tablet.client.post(url, data, format="json")
    assert response.json()["code"] == code
    assert response.status_code == status
    assert response.json()["detail"]
    assert TableEvent.objects.filter(table=siete_table).count() == before


def test_a_void_goes_through_a_correction_not_the_tablet(
    client_for: Any, dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User,
    siete_table: Table,
) -> None:  # fmt: skip
    tablet = tablet_at(client_for(dealer_dora), siete_table)
    tablet.send("place_wager", box=1, amount=20)
    direct = tablet.send("void_round", expect=409, reason="misdeal")
    assert direct["code"] == "needs_approval"
    asked = client_for(dealer_dora).post(
        f"/api/tables/{siete_table.pk}/corrections",
        {"command": {"type": "void_round", "data": {"reason": "misdeal"}}, "reason": "misdeal"},
        format="json",
    )
    assert asked.status_code == 201, asked.json()
    approved = client_for(pit_boss_pedro).post(f"/api/corrections/{asked.json()['id']}/approve")
    assert approved.status_code == 200, approved.json()
    assert approved.json()["state"]["phase"] == "voided"
    assert Round.objects.get(table=siete_table).status == Round.Status.VOIDED
    voided = TableEvent.objects.get(table=siete_table, type="round.voided")
    assert voided.payload["approved_by"] == "pedro"


def test_a_wrong_payout_record_is_corrected_with_a_second_pit_boss(
    client_for: Any, dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User,
    siete_table: Table,
) -> None:  # fmt: skip
    tablet = tablet_at(client_for(dealer_dora), siete_table)
    tablet.send("place_wager", box=1, amount=20)
    tablet.send("record_card", card="3O", face_up=False)
    tablet.send("record_card", card="4C", face_up=False)
    tablet.send("reveal", box=1)
    tablet.send("stand", box=1)
    tablet.send("reveal_bank")
    tablet.send("record_card", card="1E")  # bank 5 beats the box's 3: the stake is collected
    tablet.send("record_payout", box=1, amount=20)  # keyed with the wrong sign
    assert [alert.code for alert in Alert.objects.all()] == ["payout_mismatch"]
    asked = client_for(dealer_dora).post(
        f"/api/tables/{siete_table.pk}/corrections",
        {"command": {"type": "correct_payout", "data": {"box": 1, "amount": -20, "reason": "typo"}},
         "reason": "typed +20 for -20"},
        format="json",
    )  # fmt: skip
    assert asked.status_code == 201, asked.json()
    approved = client_for(pit_boss_pedro).post(f"/api/corrections/{asked.json()['id']}/approve")
    assert approved.status_code == 200, approved.json()
    corrected = TableEvent.objects.get(table=siete_table, type="payout.corrected")
    assert corrected.payload["previous"] == 20
    assert corrected.payload["amount"] == -20
    assert (corrected.payload["requested_by"], corrected.payload["approved_by"]) == (
        "dora",
        "pedro",
    )
    assert Alert.objects.count() == 1  # the corrected figure matches: no new alert
    assert verify_table(siete_table).ok


def test_the_tablet_enters_no_card_while_the_tables_shoe_is_online(
    client_for: Any, dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User,
    siete_table: Table,
) -> None:  # fmt: skip
    from django.utils import timezone

    from devices.models import Device, DeviceBinding

    shoe = Device.objects.create(
        serial="SIM-T", status=Device.Status.ACTIVE, online=True, enrolled_at=timezone.now()
    )
    DeviceBinding.objects.create(
        device=shoe, table=siete_table, requested_by=pit_boss_paula, requested_at=timezone.now(),
        approved_by=pit_boss_pedro, approved_at=timezone.now(),
    )  # fmt: skip
    tablet = tablet_at(client_for(dealer_dora), siete_table)
    tablet.send("place_wager", box=1, amount=20)
    refused = tablet.send("record_card", expect=409, card="3O")
    assert refused["code"] == "shoe_feeds_table"
    shoe.online = False
    shoe.save(update_fields=["online"])
    tablet.send("record_card", card="3O")  # the shoe is offline: the dealer carries on


def test_a_gap_in_the_shoes_feed_holds_the_round_until_a_pit_boss_resolves_it(
    client_for: Any, dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User,
    siete_table: Table,
) -> None:  # fmt: skip
    from django.utils import timezone

    from devices.models import Device, DeviceBinding, DeviceGap

    shoe = Device.objects.create(
        serial="SIM-T", status=Device.Status.ACTIVE, online=False, enrolled_at=timezone.now()
    )
    DeviceBinding.objects.create(
        device=shoe, table=siete_table, requested_by=pit_boss_paula, requested_at=timezone.now(),
        approved_by=pit_boss_pedro, approved_at=timezone.now(),
    )  # fmt: skip
    tablet = tablet_at(client_for(dealer_dora), siete_table)
    tablet.send("place_wager", box=1, amount=20)
    gap = DeviceGap.objects.create(
        device=shoe, boot_id=7, first_missing=12, last_missing=13, opened_at=timezone.now()
    )
    before = TableEvent.objects.filter(table=siete_table).count()
    held = tablet.send("record_card", expect=409, card="3O")
    assert held["code"] == "round_held"
    assert "gap" in held["detail"]
    assert TableEvent.objects.filter(table=siete_table).count() == before
    gap.resolved_at, gap.resolved_by = timezone.now(), pit_boss_paula
    gap.save(update_fields=["resolved_at", "resolved_by"])
    tablet.send("record_card", card="3O")
