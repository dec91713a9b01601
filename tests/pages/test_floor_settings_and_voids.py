"""A table's limits and paytable on the pit boss's page, its change log, and the two requests a
second pit boss decides in the queue: a settings change and a slip's void."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from reports.models import Slip
from tables.models import CorrectionRequest
from tables.services import engine_state
from tests.pages.supervision_floor import LiveFloor, live_floor

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor(
    dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User, cashier_carmen: User
) -> LiveFloor:
    return live_floor(dealer_dora, pit_boss_paula, pit_boss_pedro, cashier_carmen)


def signed_in(user: User, language: str = "en") -> Client:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def settings_form(floor: LiveFloor, **changes: str) -> dict[str, str]:
    """The form as the page draws it (every field with its value now), with `changes`."""
    page = signed_in(floor.pit_boss).get(f"/floor/tables/{floor.table.pk}/").content.decode()
    form = page[
        page.index('id="settings-form"') : page.index("</form>", page.index("settings-form"))
    ]
    fields = dict(re.findall(r'name="([a-z_.]+)" value="([^"]*)"', form))
    fields |= dict(re.findall(r'name="([a-z_.]+)">.*?<option value="([^"]*)" selected', form))
    return fields | {key.replace("__", "."): value for key, value in changes.items()}


def in_force(floor: LiveFloor) -> object:
    return engine_state.current_state(floor.refresh()).settings


def test_the_page_offers_the_limits_and_the_settings_a_second_pit_boss_approves(
    floor: LiveFloor,
) -> None:
    form = settings_form(floor)
    assert form["min_stake"] == "10"
    assert form["max_stake"] == "500"
    assert form["paytable.real"] == "2:1"
    assert form["ties"] == "push"


def test_a_limits_change_is_played_at_once_shown_on_the_tile_and_logged(
    floor: LiveFloor,
) -> None:
    client = signed_in(floor.pit_boss)
    response = client.post(
        f"/floor/tables/{floor.table.pk}/settings/", settings_form(floor, max_stake="1000")
    )
    assert response.status_code == 302
    assert in_force(floor).max_stake == 1000  # type: ignore[attr-defined]
    tile = client.get(f"/floor/tiles/{floor.table.pk}/").content.decode()
    assert "10 / 1000" in re.sub(r"\s+", " ", tile)
    page = client.get(f"/floor/tables/{floor.table.pk}/").content.decode()
    log = page[page.index('id="settings-log"') :]
    assert "Maximum stake: 500 → <strong>1000</strong>" in log
    assert floor.pit_boss.username in log
    assert not CorrectionRequest.objects.exists()


def test_a_paytable_change_waits_for_a_second_pit_boss(floor: LiveFloor) -> None:
    mine = signed_in(floor.pit_boss)
    response = mine.post(
        f"/floor/tables/{floor.table.pk}/settings/",
        settings_form(floor, paytable__real="3:1") | {"reason": "Promotion night."},
    )
    assert response.status_code == 302
    assert str(in_force(floor).ratio("real")) == "2"  # type: ignore[attr-defined]
    (request,) = CorrectionRequest.objects.filter(status=CorrectionRequest.Status.PENDING)
    own = mine.get("/floor/lists/").content.decode()
    assert "Settings change" in own
    assert "Paytable: real: 2:1 → 3:1" in own
    assert "data-own-request" in own
    assert "data-approve" not in own
    refused = mine.post(f"/floor/approvals/settings/{request.pk}/", {"decision": "approve"})
    assert refused.status_code == 403
    assert str(in_force(floor).ratio("real")) == "2"  # type: ignore[attr-defined]

    other = signed_in(floor.other_pit_boss)
    assert "data-approve" in other.get("/floor/lists/").content.decode()
    approved = other.post(
        f"/floor/approvals/settings/{request.pk}/", {"decision": "approve", "note": "Checked."}
    )
    assert approved.status_code == 200
    assert str(in_force(floor).ratio("real")) == "3"  # type: ignore[attr-defined]
    log = other.get(f"/floor/tables/{floor.table.pk}/").content.decode()
    log = log[log.index('id="settings-log"') :]
    assert f"asked by {floor.pit_boss.username}" in log
    assert "Paytable: real: 2:1 → <strong>3:1</strong>" in log


def test_a_paytable_change_without_a_reason_is_refused_in_the_readers_language(
    floor: LiveFloor,
) -> None:
    response = signed_in(floor.pit_boss, "es").post(
        f"/floor/tables/{floor.table.pk}/settings/", settings_form(floor, ties="bank")
    )
    assert response.status_code == 422
    assert "Diga por qué" in response.content.decode()
    assert not CorrectionRequest.objects.exists()
    assert in_force(floor).ties == "push"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("changes", "status", "words"),
    [
        ({"max_stake": "lots"}, 422, "Maximum stake"),
        ({"max_stake": "5"}, 422, "max_stake"),
        ({}, 422, "Nothing was changed."),
    ],
)
def test_a_bad_or_empty_change_is_refused_with_a_sentence_and_changes_nothing(
    floor: LiveFloor, changes: dict[str, str], status: int, words: str
) -> None:
    head = floor.refresh().head_seq
    response = signed_in(floor.pit_boss).post(
        f"/floor/tables/{floor.table.pk}/settings/", settings_form(floor, **changes)
    )
    assert response.status_code == status
    assert words in response.content.decode()
    assert floor.refresh().head_seq == head


def test_a_game_without_a_settings_command_says_its_settings_are_fixed(floor: LiveFloor) -> None:
    client = signed_in(floor.pit_boss)
    page = client.get(f"/floor/tables/{floor.stud.pk}/").content.decode()
    assert "settings are fixed when the table is created" in page
    assert 'id="settings-form"' not in page
    response = client.post(f"/floor/tables/{floor.stud.pk}/settings/", {"small_bet": "20"})
    assert response.status_code == 422


def test_a_slip_void_asked_on_the_table_page_is_decided_by_another_pit_boss(
    floor: LiveFloor,
) -> None:
    mine = signed_in(floor.pit_boss)
    mine.post(f"/floor/tables/{floor.table.pk}/fill/", {"chips-100": "2", "chips-25": "4"})
    (slip,) = Slip.objects.all()
    page = mine.get(f"/floor/tables/{floor.table.pk}/").content.decode()
    assert f'data-slip="fill-{slip.number}"' in page
    assert "data-ask-void" in page
    asked = mine.post(
        f"/floor/tables/{floor.table.pk}/void/",
        {"slip_type": "fill", "slip_number": str(slip.number), "reason": "Wrong table."},
    )
    assert asked.status_code == 302
    page = mine.get(f"/floor/tables/{floor.table.pk}/").content.decode()
    assert "Void waiting for another pit boss" in page
    own = mine.get("/floor/lists/").content.decode()
    assert "Slip void" in own
    assert f"Fill slip {slip.number} (300, requested, asked by" in own
    assert "Wrong table." in own
    assert "data-approve" not in own
    (request,) = CorrectionRequest.objects.filter(status=CorrectionRequest.Status.PENDING)
    assert (
        mine.post(f"/floor/approvals/slip_void/{request.pk}/", {"decision": "approve"}).status_code
        == 403
    )
    slip.refresh_from_db()
    assert not slip.voided

    other = signed_in(floor.other_pit_boss)
    decided = other.post(
        f"/floor/approvals/slip_void/{request.pk}/", {"decision": "approve", "note": "Seen."}
    )
    assert decided.status_code == 200
    slip.refresh_from_db()
    assert slip.voided
    page = other.get(f"/floor/tables/{floor.table.pk}/").content.decode()
    assert "data-ask-void" not in page


def test_a_slip_void_refused_in_the_queue_leaves_the_slip_valid(floor: LiveFloor) -> None:
    mine = signed_in(floor.pit_boss)
    mine.post(f"/floor/tables/{floor.table.pk}/fill/", {"chips-100": "1"})
    (slip,) = Slip.objects.all()
    mine.post(
        f"/floor/tables/{floor.table.pk}/void/",
        {"slip_type": "fill", "slip_number": str(slip.number), "reason": "Typo."},
    )
    (request,) = CorrectionRequest.objects.all()
    refused = signed_in(floor.other_pit_boss).post(
        f"/floor/approvals/slip_void/{request.pk}/", {"decision": "refuse", "note": "It is right."}
    )
    assert refused.status_code == 200
    request.refresh_from_db()
    assert (request.status, request.decision_note) == ("refused", "It is right.")
    slip.refresh_from_db()
    assert not slip.voided


def test_a_void_without_a_reason_or_slip_is_refused_not_an_error(floor: LiveFloor) -> None:
    client = signed_in(floor.pit_boss)
    for form in (
        {"slip_type": "fill", "slip_number": "x"},
        {"slip_type": "fill", "slip_number": "999"},
    ):
        response = client.post(f"/floor/tables/{floor.table.pk}/void/", form | {"reason": "r"})
        assert response.status_code == 422
    assert not CorrectionRequest.objects.exists()
