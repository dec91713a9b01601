"""No hidden card leaves the server before its round is over, on any surface, in either game.

One test per game and surface, so that each can be read on its own. The refusals are kept by
the engine's own sentences (tables/engine/), every other surface by tables.disclosure.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from django.contrib.auth.models import User

from tables.models import Alert
from tests.disclosure.floor import (
    LiveRound,
    named,
    siete_dealt,
    siete_finish,
    siete_live_round,
    stud_finish,
    stud_live_hand,
)
from tests.disclosure.surfaces import (
    admin_pages_text,
    api_reads,
    device_report_text,
    provisional_audit_text,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def siete(people: dict[str, User]) -> Any:
    return siete_live_round(people)


@pytest.fixture
def stud_hand(people: dict[str, User]) -> LiveRound:
    return stud_live_hand(people)


def duplicate_of_a_hidden_card(live: LiveRound, shoe: Any) -> None:
    """The shoe reads box 1's face-down card again: the round is held and the pit alerted."""
    assert shoe.draw("6E") != "accepted"


# --- Siete y Medio, fed by the shoe ----------------------------------------------------------


def test_siete_live_answers_name_no_hidden_card(siete: Any) -> None:
    live, _ = siete
    assert named(live.hidden, api_reads(live)) == set()


def test_siete_device_report_names_no_hidden_card(siete: Any) -> None:
    live, _ = siete
    for name in ("pit_boss", "auditor", "admin"):
        report = live.clients[name].get(f"/api/devices/{live.device_id}").json()
        assert [card["card"] for card in report["cards"]] == [None, None, None, "12O"]
    assert named(live.hidden, device_report_text()) == set()


def test_siete_provisional_audit_names_no_hidden_card(siete: Any, on_commit: Any) -> None:
    live, shoe = siete
    duplicate_of_a_hidden_card(live, shoe)
    assert named(live.hidden, provisional_audit_text(live, on_commit)) == set()


def test_siete_log_lines_name_no_hidden_card(
    people: dict[str, User],
    caplog: pytest.LogCaptureFixture,
    on_commit: Any,
) -> None:
    caplog.set_level(logging.INFO)
    live, shoe = siete_live_round(people)
    duplicate_of_a_hidden_card(live, shoe)
    provisional_audit_text(live, on_commit)
    device_report_text()
    assert "reports.tasks.audit_table_findings" in caplog.text  # the worker's lines were read
    assert named(live.hidden, caplog.text) == set()


def test_siete_admin_pages_name_no_hidden_card(siete: Any) -> None:
    live, shoe = siete
    duplicate_of_a_hidden_card(live, shoe)
    assert named(live.hidden, admin_pages_text(live)) == set()


def test_siete_alerts_name_no_hidden_card(siete: Any) -> None:
    """The duplicate read's alert names the card in its sentence and details; the alerts API
    must show them through tables.disclosure (as the admin does), not as stored."""
    live, shoe = siete
    duplicate_of_a_hidden_card(live, shoe)
    assert Alert.objects.filter(table=live.table).exists()
    alerts = live.clients["pit_boss"].get("/api/alerts").content.decode()
    assert named(live.hidden, alerts) == set()


def test_siete_refusals_name_no_hidden_card(people: dict[str, User]) -> None:
    """A wrong reveal, a false bust declaration and a wrong bank card are refused without
    naming a hidden card."""
    live, _ = siete_dealt(people)
    tablet = live.tablet
    assert tablet is not None
    tablet.client.post(tablet.command_url("reveal"), {"box": 1, "card": "7O"}, format="json")
    before_declaring = "\n".join(live.bodies)
    assert named(live.hidden, before_declaring) == set()
    assert "holds 6" not in before_declaring  # box 1's hidden total (6E) is a secret too
    # R1: a false declaration of bust shows the box's cards; box 1's 6E is face up from now on.
    tablet.client.post(tablet.command_url("declare_bust"), {"box": 1}, format="json")
    tablet.send("stand", box=1)
    tablet.send("stand", box=2)
    tablet.client.post(tablet.command_url("reveal_bank"), {"card": "5C"}, format="json")
    assert named(live.hidden - {"6E"}, "\n".join(live.bodies)) == set()


def test_siete_after_the_round_closes_the_auditor_sees_everything(siete: Any) -> None:
    live, shoe = siete
    siete_finish(live, shoe)
    auditor = live.clients["auditor"]
    record = auditor.get(f"/api/tables/{live.table.pk}/rounds/1")
    assert record.status_code == 200
    assert named(live.hidden, record.content.decode()) == live.hidden
    events = auditor.get(f"/api/tables/{live.table.pk}/events").content.decode()
    assert named(live.hidden, events) == live.hidden
    report = auditor.get(f"/api/devices/{live.device_id}").json()
    assert {"6E", "3O", "4C", "12O"} <= {card["card"] for card in report["cards"]}
    assert named(live.hidden, device_report_text()) == live.hidden
    assert named(live.hidden, admin_pages_text(live)) == live.hidden


# --- Seven-Card Stud, hole cards read by the shoe ----------------------------------------------


def test_stud_live_answers_name_no_hidden_card(stud_hand: LiveRound) -> None:
    assert named(stud_hand.hidden, api_reads(stud_hand)) == set()


def test_stud_provisional_audit_names_no_hidden_card(stud_hand: LiveRound, on_commit: Any) -> None:
    text = provisional_audit_text(stud_hand, on_commit)
    assert named(stud_hand.hidden, text) == set()


def test_stud_log_lines_name_no_hidden_card(
    people: dict[str, User],
    caplog: pytest.LogCaptureFixture,
    on_commit: Any,
) -> None:
    caplog.set_level(logging.INFO)
    live = stud_live_hand(people)
    provisional_audit_text(live, on_commit)
    assert named(live.hidden, caplog.text) == set()


def test_stud_admin_pages_name_no_hidden_card(stud_hand: LiveRound) -> None:
    assert named(stud_hand.hidden, admin_pages_text(stud_hand)) == set()


def test_stud_refusals_name_no_hidden_card(stud_hand: LiveRound) -> None:
    """Entering a hole card again is refused without saying it was dealt."""
    tablet = stud_hand.tablet
    assert tablet is not None
    for code in sorted(stud_hand.hidden):
        tablet.client.post(tablet.command_url("record_card"), {"card": code}, format="json")
    assert named(stud_hand.hidden, "\n".join(stud_hand.bodies)) == set()


def test_stud_after_the_hand_closes_the_auditor_sees_everything(stud_hand: LiveRound) -> None:
    stud_finish(stud_hand)
    auditor = stud_hand.clients["auditor"]
    record = auditor.get(f"/api/tables/{stud_hand.table.pk}/rounds/1")
    assert record.status_code == 200
    assert named(stud_hand.hidden, json.dumps(record.json())) == stud_hand.hidden
    assert named(stud_hand.hidden, admin_pages_text(stud_hand)) == stud_hand.hidden
