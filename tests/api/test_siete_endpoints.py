"""Every Siete y Medio endpoint of the dealer's API: success, refusals, roles, retries, secrecy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tables.engine import siete
from tables.games import binding_for
from tables.models import CorrectionRequest, Round, Table, TableEvent
from tests.api.game_clients import (
    SIETE_SETTINGS,
    Tablet,
    approve,
    ask_correction,
    assert_refused,
    open_table,
    recorded,
    signed_in_as,
)

pytestmark = pytest.mark.django_db
APPROVAL_COMMANDS = ("void_round", "void_box", "correct_held_card", "move_card", "correct_payout")
# The bank stands by itself at 5 or more, so an accepted bank_stand cannot be reached.
ONLY_REFUSED = {"bank_stand"}


@pytest.fixture(autouse=True)
def quick_password_hashing(settings: Any) -> None:
    """The personas' passwords are never checked here (forced sign-in): hash them cheaply."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def table(dealer_dora: User, pit_boss_paula: User) -> Table:
    return open_table("SyM-E", "siete_y_medio", SIETE_SETTINGS, dealer_dora, pit_boss_paula)


@pytest.fixture
def tablet(client_for: Any, dealer_dora: User, table: Table) -> Tablet:
    return Tablet(client_for(dealer_dora), table, "siete")


@pytest.fixture
def boss(client_for: Any, pit_boss_paula: User, table: Table) -> Tablet:
    """The pit boss at the table: limits and paytable are the pit boss's (ARCHITECTURE 8)."""
    return Tablet(client_for(pit_boss_paula), table, "siete")


PIT_BOSS_COMMANDS = binding_for("siete_y_medio").pit_boss_commands


def sender(tablet: Tablet, boss: Tablet, path: str) -> Any:
    command = path.rsplit("/", 1)[-1].replace("-", "_")
    return boss.client if command in PIT_BOSS_COMMANDS else tablet.client


def wagered(tablet: Tablet) -> None:
    tablet.send("place_wager", box=1, amount=20)
    tablet.send("place_wager", box=2, amount=10)


def dealt(tablet: Tablet) -> None:
    """Two boxes and the bank hold a face-down card each, known to the tablet; box 1 to act."""
    wagered(tablet)
    for card in ("3O", "6C", "4E"):
        tablet.send("record_card", card=card, face_up=False)


def dealt_unknown(tablet: Tablet) -> None:
    """As `dealt`, but every card went down unseen by the tablet."""
    wagered(tablet)
    for _ in range(3):
        tablet.send("record_card", card=None)


def unknown_bank_to_play(tablet: Tablet) -> None:
    dealt_unknown(tablet)
    tablet.send("stand", box=1)
    tablet.send("stand", box=2)


def visibly_bust(tablet: Tablet) -> None:
    """The only box busts on its face-up cards: the round settles with no bank turn."""
    tablet.send("place_wager", box=1, amount=20)
    tablet.send("record_card", card="6O")
    tablet.send("record_card", card="3C")
    for card in ("7O", "4E"):
        tablet.send("request_draw", box=1)
        tablet.send("record_card", card=card)


def bank_to_play(tablet: Tablet) -> None:
    dealt(tablet)
    tablet.send("stand", box=1)
    tablet.send("stand", box=2)


def bank_revealed_at_four(tablet: Tablet) -> None:
    bank_to_play(tablet)
    tablet.send("reveal_bank")


def settled(tablet: Tablet) -> None:
    """Box 1 (3) loses 20 and box 2 (6) wins 10 against the bank's 4 + 1 = 5."""
    bank_revealed_at_four(tablet)
    tablet.send("record_card", card="1C")


def paid(tablet: Tablet) -> None:
    settled(tablet)
    tablet.send("record_payout", box=1, amount=-20)
    tablet.send("record_payout", box=2, amount=10)


def betting(tablet: Tablet) -> None:
    tablet.send("start_round")


SETUPS: dict[str, Callable[[Tablet], None]] = {
    "no_round": lambda tablet: None,
    "betting": betting,
    "wagered": wagered,
    "dealt": dealt,
    "dealt_unknown": dealt_unknown,
    "unknown_bank_to_play": unknown_bank_to_play,
    "visibly_bust": visibly_bust,
    "bank_to_play": bank_to_play,
    "bank_at_four": bank_revealed_at_four,
    "settled": settled,
    "paid": paid,
}


# --- 1. Every endpoint in a success path -------------------------------------------------


def test_every_siete_command_has_an_endpoint_and_is_covered_here() -> None:
    covered = set(FIRST_ROUND) | set(SECOND_ROUND) | set(APPROVAL_COMMANDS) | ONLY_REFUSED
    covered |= {"expose_bank_card"}
    assert covered == set(siete.COMMAND_TYPES)


FIRST_ROUND = (
    "start_round", "place_wager", "change_wager", "cancel_wager", "record_card", "reveal",
    "request_draw", "declare_bust", "stand", "reveal_bank", "record_payout",
)  # fmt: skip
SECOND_ROUND = ("update_settings", "reshuffle", "cut_card", "sit_out", "identify_card")


def test_a_bank_card_exposed_in_play_is_entered_and_plays_face_up(tablet: Tablet) -> None:
    tablet.send("place_wager", box=1, amount=20)
    tablet.send("place_wager", box=2, amount=10)
    for _ in range(3):
        tablet.send("record_card", card=None)
    tablet.send("stand", box=1)
    tablet.send("expose_bank_card", card="6E")
    assert tablet.state()["bank"]["cards"] == [{"card": "6E"}]
    assert tablet.state()["turn"] == {"hand": "box", "box": 2}


def test_a_round_uses_every_dealing_and_paying_endpoint(tablet: Tablet, table: Table) -> None:
    assert tablet.send("start_round")["round"] == 1
    tablet.send("place_wager", box=1, amount=20)
    tablet.send("place_wager", box=2, amount=10)
    tablet.send("place_wager", box=3, amount=10)
    tablet.send("change_wager", box=2, amount=30)
    tablet.send("cancel_wager", box=3)
    for card in ("3O", "6C", "4E"):
        tablet.send("record_card", card=card, face_up=False)
    tablet.send("request_draw", box=1, face_down=False)
    tablet.send("record_card", card="5B")  # 3 hidden + 5 = 8: over 7½, seen by the dealer only
    tablet.send("declare_bust", box=1)
    tablet.send("reveal", box=2)
    tablet.send("stand", box=2)
    tablet.send("reveal_bank")
    tablet.send("record_card", card="1C")  # the bank: 4 + 1 = 5, stands
    state = tablet.state()
    assert state["phase"] == "settled"
    nets = {result["box"]: result["net"] for result in state["results"]}
    assert nets == {1: -20, 2: 30}
    tablet.send("record_payout", box=1, amount=-20)
    tablet.send("record_payout", box=2, amount=30)
    closed = tablet.post("rounds/close", expect=200)
    assert closed == {"round": 1, "status": Round.Status.CLOSED}
    assert set(tablet.sent) == set(FIRST_ROUND)


def test_a_second_round_uses_the_shoe_and_settings_endpoints(
    tablet: Tablet, boss: Tablet, table: Table
) -> None:
    settings = {**SIETE_SETTINGS, "shuffle": "cut_card", "exposed_player_card": "player_option"}
    changed = boss.send("update_settings", settings=settings)
    tablet.sent.append("update_settings")
    assert [event["type"] for event in changed["events"]] == ["settings.changed"]
    tablet.send("reshuffle")
    tablet.send("cut_card")
    opened = tablet.post("rounds")
    assert opened["round"] == 1
    tablet.send("place_wager", box=1, amount=20)
    tablet.send("place_wager", box=2, amount=10)
    tablet.send("record_card", card="2O", face_up=True)  # box 1's card, exposed
    tablet.send("record_card", card=None)  # box 2: face down, unknown to the tablet
    tablet.send("record_card", card=None)  # the bank
    tablet.send("sit_out", box=1)
    tablet.send("stand", box=2)
    tablet.send("reveal_bank", card="5C")
    assert tablet.state()["phase"] == "settling"
    identified = tablet.send("identify_card", box=2, card="6E")
    assert identified["state"]["phase"] == "settled"
    assert set(SECOND_ROUND) <= set(tablet.sent)


@pytest.mark.parametrize("command", APPROVAL_COMMANDS)
def test_a_correction_is_refused_at_its_own_endpoint(
    tablet: Tablet, table: Table, command: str
) -> None:
    dealt(tablet)
    before = recorded(table)
    response = tablet.client.post(tablet.command_url(command), {}, format="json")
    assert_refused(response, 409, "needs_approval", table, before)


CORRECTIONS: list[tuple[str, str, dict[str, Any], str]] = [
    ("dealt", "void_round", {"reason": "misdeal"}, "round.voided"),
    ("dealt", "void_box", {"box": 2, "reason": "late bet"}, "box.voided"),
    ("dealt", "move_card", {"from_box": 1, "to_box": 2}, "card.moved"),
    ("paid", "correct_payout", {"box": 2, "amount": 5, "reason": "typo"}, "payout.corrected"),
]


@pytest.mark.parametrize(("setup", "command", "data", "event"), CORRECTIONS)
def test_a_correction_is_applied_when_a_second_pit_boss_approves(
    client_for: Any, tablet: Tablet, table: Table, dealer_dora: User, pit_boss_paula: User,
    pit_boss_pedro: User, setup: str, command: str, data: dict[str, Any], event: str,
) -> None:  # fmt: skip
    SETUPS[setup](tablet)
    correction = ask_correction(client_for(pit_boss_paula), table, command, data)
    before = recorded(table)
    own = client_for(pit_boss_paula).post(f"/api/corrections/{correction}/approve")
    assert_refused(own, 403, "own_request", table, before)
    approved = approve(client_for(pit_boss_pedro), correction)
    types = [appended["type"] for appended in approved["events"]]
    assert types[0] == "correction.approved"
    assert event in types
    applied = TableEvent.objects.get(table=table, type=event)
    assert (applied.payload["requested_by"], applied.payload["approved_by"]) == ("paula", "pedro")
    if setup != "paid":  # a settled box's cards are turned up as they are collected
        for hidden in ("3O", "6C"):  # the boxes' face-down cards, not turned up yet
            assert hidden not in str(approved) + tablet.live_text()


def test_a_held_card_is_corrected_through_an_approved_correction(
    client_for: Any, tablet: Tablet, table: Table, dealer_dora: User, pit_boss_pedro: User
) -> None:
    from tables.services.commands import table_command

    tablet.send("place_wager", box=1, amount=20)
    for card in ("3O", "6C", "3O"):  # the shoe reads box 1's card twice: the round is held
        table_command(
            table_id=table.pk,
            command=siete.RecordCard(card, source="shoe"),
            actor=None,
            source=TableEvent.Source.SHOE,
        )
    assert tablet.state()["held"] == "duplicate_card"
    before = recorded(table)
    held = tablet.client.post(tablet.command_url("stand"), {"box": 1}, format="json")
    assert_refused(held, 409, "round_held", table, before)
    correction = ask_correction(client_for(dealer_dora), table, "correct_held_card", {"card": "4C"})
    approved = approve(client_for(pit_boss_pedro), correction)
    assert approved["state"]["held"] is None
    assert TableEvent.objects.filter(table=table, type="card.corrected").exists()


def test_a_correction_may_be_refused_and_then_changes_nothing(
    client_for: Any, tablet: Tablet, table: Table, dealer_dora: User, pit_boss_paula: User
) -> None:
    dealt(tablet)
    correction = ask_correction(client_for(dealer_dora), table, "void_round", {"reason": "x"})
    refused = client_for(pit_boss_paula).post(
        f"/api/corrections/{correction}/refuse", {"note": "no misdeal"}, format="json"
    )
    assert refused.status_code == 200, refused.json()
    assert refused.json()["status"] == CorrectionRequest.Status.REFUSED
    assert Round.objects.get(table=table).status == Round.Status.OPEN


# --- 2. Every refusal, with the uniform body and nothing recorded -------------------------

REFUSALS: list[tuple[str, str, dict[str, Any], int, str]] = [
    ("dealt", "start_round", {}, 409, "round_in_progress"),
    ("betting", "place_wager", {"box": 1, "amount": 5}, 422, "stake_below_minimum"),
    ("betting", "place_wager", {"box": 1, "amount": 1000}, 422, "stake_above_maximum"),
    ("betting", "place_wager", {"box": 1, "amount": 12}, 422, "stake_not_chip_multiple"),
    ("betting", "place_wager", {"box": 9, "amount": 10}, 422, "invalid_box"),
    ("betting", "place_wager", {"box": "one", "amount": 10}, 422, "invalid_field"),
    ("betting", "place_wager", {"box": 1}, 422, "missing_field"),
    ("betting", "place_wager", {"box": 1, "amount": 10, "colour": "red"}, 400, "invalid_input"),
    ("betting", "place_wager", {"box": 2, "amount": 10, "seat": 3}, 409, "box_not_your_seat"),
    ("wagered", "place_wager", {"box": 1, "amount": 10}, 409, "box_taken"),
    ("dealt", "place_wager", {"box": 3, "amount": 10}, 409, "wagers_closed"),
    ("wagered", "change_wager", {"box": 4, "amount": 10}, 409, "no_wager"),
    ("dealt", "change_wager", {"box": 1, "amount": 10}, 409, "wagers_closed"),
    ("betting", "cancel_wager", {"box": 1}, 409, "no_wager"),
    ("dealt", "cancel_wager", {"box": 1}, 409, "wagers_closed"),
    ("no_round", "record_card", {"card": "3O"}, 409, "no_round_open"),
    ("wagered", "record_card", {"card": "8O"}, 422, "invalid_card"),
    ("wagered", "record_card", {"card": "3O", "source": "shoe"}, 422, "invalid_source"),
    ("wagered", "record_card", {"card": "3O", "target": "player"}, 422, "invalid_target"),
    ("wagered", "record_card", {"card": "3O", "physical_id": ""}, 422, "invalid_physical_id"),
    ("dealt", "record_card", {"card": "2B"}, 409, "no_draw_requested"),
    ("visibly_bust", "record_card", {"card": "2B"}, 409, "no_card_due"),
    ("dealt", "record_card", {"card": "3O"}, 409, "duplicate_card"),
    ("unknown_bank_to_play", "record_card", {"card": "2B"}, 409, "bank_card_not_revealed"),
    ("bank_at_four", "record_card", {"card": "3O"}, 409, "duplicate_card"),
    ("wagered", "request_draw", {"box": 1}, 409, "deal_not_complete"),
    ("dealt", "request_draw", {"box": 2}, 409, "not_your_turn"),
    ("dealt", "stand", {"box": 7}, 422, "invalid_box"),
    ("wagered", "stand", {"box": 1}, 409, "deal_not_complete"),
    ("dealt", "reveal", {"box": 1, "card": "4E"}, 409, "card_already_read"),
    ("dealt", "reveal", {"box": 1, "card": "3O"}, 409, "card_already_read"),
    ("dealt", "sit_out", {"box": 1}, 409, "sit_out_not_offered"),
    ("dealt", "reveal_bank", {}, 409, "not_bank_turn"),
    ("bank_at_four", "reveal_bank", {}, 409, "bank_already_revealed"),
    ("dealt", "bank_stand", {}, 409, "not_bank_turn"),
    ("bank_to_play", "bank_stand", {}, 409, "bank_card_not_revealed"),
    ("bank_at_four", "bank_stand", {}, 409, "bank_must_draw"),
    ("dealt_unknown", "identify_card", {"box": 1, "card": "3O"}, 409, "not_at_settlement"),
    ("dealt", "identify_card", {"box": 1, "card": "3O"}, 409, "no_unknown_card"),
    ("settled", "identify_card", {"box": 1, "card": "3O"}, 409, "no_round_open"),
    ("dealt", "record_payout", {"box": 1, "amount": -20}, 409, "round_not_settled"),
    ("paid", "record_payout", {"box": 1, "amount": -20}, 409, "payout_already_recorded"),
    ("betting", "reshuffle", {"now": True}, 400, "invalid_input"),
    ("betting", "cut_card", {"now": True}, 400, "invalid_input"),
    ("dealt", "update_settings", {"settings": SIETE_SETTINGS}, 409, "round_in_progress"),
    ("betting", "update_settings", {"settings": {"colour": "red"}}, 422, "unknown_setting"),
    ("betting", "update_settings", {"settings": {"decks": 100}}, 422, "invalid_setting"),
]


def test_a_false_bust_declaration_is_refused_and_shows_the_card(
    tablet: Tablet, table: Table
) -> None:
    """R1: the declaration shows the face-down card, so the refusal is recorded with it."""
    dealt(tablet)
    answer = tablet.send("declare_bust", box=1)
    assert [event["type"] for event in answer["events"]] == ["card.revealed", "bust.refused"]
    assert answer["state"]["boxes"][0]["cards"] == [{"card": "3O"}]
    assert TableEvent.objects.filter(table=table, type="bust.refused").count() == 1


@pytest.mark.parametrize(("setup", "command", "body", "status", "code"), REFUSALS)
def test_a_refused_command_answers_with_its_code_and_records_nothing(
    tablet: Tablet, boss: Tablet, table: Table, setup: str, command: str, body: dict[str, Any],
    status: int, code: str,
) -> None:  # fmt: skip
    SETUPS[setup](tablet)
    before = recorded(table)
    client = sender(tablet, boss, command)
    response = client.post(tablet.command_url(command), body, format="json")
    assert_refused(response, status, code, table, before)


BODY_ENDPOINTS = [f"siete/{name.replace('_', '-')}" for name in siete.COMMAND_TYPES] + [
    "commands",
    "corrections",
]


@pytest.mark.parametrize("path", BODY_ENDPOINTS)
def test_a_body_that_is_not_json_is_refused_as_malformed(
    tablet: Tablet, boss: Tablet, table: Table, path: str
) -> None:
    betting(tablet)
    before = recorded(table)
    client = sender(tablet, boss, path)
    response = client.post(tablet.url(path), "{{", content_type="application/json")
    assert_refused(response, 400, "malformed_request", table, before)


VOID = {"type": "void_round", "data": {"reason": "misdeal"}}
SERVICE_REFUSALS: list[tuple[str, str, Any, int, str]] = [
    ("betting", "commands", {"type": "fly", "data": {}}, 422, "unknown_command"),
    ("betting", "commands", {"data": {}}, 400, "invalid_input"),
    ("betting", "commands", {"type": "place_wager", "data": [1, 20]}, 400, "invalid_input"),
    ("dealt", "commands", VOID, 409, "needs_approval"),
    ("dealt", "commands", {"type": "stand", "data": {"box": 2}}, 409, "not_your_turn"),
    ("dealt", "rounds", {}, 409, "round_in_progress"),
    ("no_round", "rounds/close", {}, 409, "no_round_in_play"),
    ("dealt", "rounds/close", {}, 409, "round_not_settled"),
    ("dealt", "corrections", {"command": VOID, "reason": " "}, 400, "invalid_input"),
    ("dealt", "corrections", {"command": VOID}, 400, "invalid_input"),
    (
        "dealt",
        "corrections",
        {"command": {"type": "stand", "data": {"box": 1}}, "reason": "x"},
        422,
        "not_a_correction",
    ),
    (
        "dealt",
        "corrections",
        {"command": {"type": "void_box", "data": {"box": "one", "reason": "x"}}, "reason": "x"},
        422,
        "invalid_field",
    ),
]


@pytest.mark.parametrize(("setup", "path", "body", "status", "code"), SERVICE_REFUSALS)
def test_the_service_endpoints_refuse_with_a_code_and_record_nothing(
    tablet: Tablet, table: Table, setup: str, path: str, body: Any, status: int, code: str
) -> None:
    SETUPS[setup](tablet)
    before = recorded(table)
    assert_refused(tablet.raw(path, body), status, code, table, before)


def test_an_approval_the_engine_refuses_records_nothing_and_leaves_the_request_pending(
    client_for: Any, tablet: Tablet, table: Table, dealer_dora: User, pit_boss_pedro: User
) -> None:
    settled(tablet)  # no payout recorded yet: nothing to correct
    data = {"box": 1, "amount": -20, "reason": "typo"}
    correction = ask_correction(client_for(dealer_dora), table, "correct_payout", data)
    before = recorded(table)
    refused = client_for(pit_boss_pedro).post(f"/api/corrections/{correction}/approve")
    assert_refused(refused, 409, "payout_not_recorded", table, before)
    assert CorrectionRequest.objects.get(pk=correction).status == CorrectionRequest.Status.PENDING


def test_a_decided_or_missing_correction_cannot_be_decided(
    client_for: Any, tablet: Tablet, table: Table, dealer_dora: User, pit_boss_pedro: User
) -> None:
    dealt(tablet)
    correction = ask_correction(client_for(dealer_dora), table, "void_round", {"reason": "x"})
    boss = client_for(pit_boss_pedro)
    approve(boss, correction)
    before = recorded(table)
    again = boss.post(f"/api/corrections/{correction}/refuse", {"note": "late"}, format="json")
    assert_refused(again, 409, "request_already_decided", table, before)
    missing = boss.post("/api/corrections/999999/approve")
    assert_refused(missing, 404, "request_not_found", table, before)


# --- 3. Permissions by role --------------------------------------------------------------

PERSONAS = [
    ("dealer_dora", None),  # assigned to the table
    ("dealer_dan", 403),  # a dealer, at another table
    ("pit_boss_paula", None),
    ("auditor_alba", 403),
    ("cashier_carmen", 403),
    (None, 401),
]
WRITES: list[tuple[str, str, Any, int]] = [
    ("betting", "siete/place-wager", {"box": 1, "amount": 20}, 201),
    ("no_round", "rounds", {}, 201),
    ("settled", "rounds/close", {}, 200),
    ("betting", "commands", {"type": "place_wager", "data": {"box": 1, "amount": 20}}, 201),
    ("dealt", "corrections", {"command": VOID, "reason": "misdeal"}, 201),
]


@pytest.mark.parametrize(("persona", "refused"), PERSONAS)
@pytest.mark.parametrize(("setup", "path", "body", "success"), WRITES)
def test_only_the_tables_dealer_and_pit_bosses_write(
    request: pytest.FixtureRequest, tablet: Tablet, table: Table, setup: str, path: str,
    body: Any, success: int, persona: str | None, refused: int | None,
) -> None:  # fmt: skip
    SETUPS[setup](tablet)
    client = signed_in_as(request, persona, table)
    before = recorded(table)
    response = client.post(tablet.url(path), body, format="json")
    if refused is None:
        assert response.status_code == success, response.json()
        assert recorded(table) != before
    else:
        codes = {401: "not_authenticated", 403: "permission_denied"}
        code = "not_your_table" if persona == "dealer_dan" else codes[refused]
        assert_refused(response, refused, code, table, before)


READERS = {
    "events": {"auditor_alba": 200, "pit_boss_paula": 403, "dealer_dora": 403},
    "rounds/1": {"auditor_alba": 200, "pit_boss_paula": 403, "dealer_dora": 403},
    "/api/alerts": {"pit_boss_paula": 200, "auditor_alba": 200, "dealer_dora": 403},
}


@pytest.mark.parametrize("path", sorted(READERS))
def test_the_audit_and_alert_reads_are_for_their_roles_only(
    request: pytest.FixtureRequest, tablet: Tablet, table: Table, path: str
) -> None:
    paid(tablet)
    tablet.post("rounds/close", expect=200)
    url = path if path.startswith("/") else tablet.url(path)
    expected = {**READERS[path], "cashier_carmen": 403}
    for persona, status in expected.items():
        client = APIClient()
        client.force_authenticate(request.getfixturevalue(persona))
        assert client.get(url).status_code == status, (persona, path)
    anonymous = APIClient().get(url)
    assert (anonymous.status_code, anonymous.json()["code"]) == (401, "not_authenticated")


def test_the_auditor_sees_a_closed_round_in_full_and_the_pit_its_alerts(
    client_for: Any, tablet: Tablet, table: Table, auditor_alba: User, pit_boss_paula: User
) -> None:
    settled(tablet)
    tablet.send("record_payout", box=1, amount=20)  # collected, keyed as paid
    tablet.send("record_payout", box=2, amount=10)
    tablet.post("rounds/close", expect=200)
    auditor = client_for(auditor_alba)
    audit = auditor.get(f"/api/tables/{table.pk}/rounds/1").json()
    assert audit["status"] == Round.Status.CLOSED
    assert [card["card"] for card in audit["state"]["boxes"][0]["cards"]] == ["3O"]
    events = auditor.get(f"/api/tables/{table.pk}/events").json()
    assert [event["seq"] for event in events] == sorted(event["seq"] for event in events)
    assert len(events) == recorded(table)[0]
    alerts = client_for(pit_boss_paula).get(f"/api/alerts?table={table.pk}&open=1").json()
    assert [alert["code"] for alert in alerts] == ["payout_mismatch"]


# --- 4. Idempotent retries ---------------------------------------------------------------

RETRIES: list[tuple[str, str, Any, Any]] = [
    ("betting", "siete/place-wager", {"box": 1, "amount": 20}, {"box": 1, "amount": 30}),
    ("dealt", "siete/stand", {"box": 1}, {"box": 2}),
    ("no_round", "rounds", {}, {"again": True}),
    ("settled", "rounds/close", {}, {"again": True}),
    (
        "betting",
        "commands",
        {"type": "place_wager", "data": {"box": 1, "amount": 20}},
        {"type": "place_wager", "data": {"box": 2, "amount": 20}},
    ),
    (
        "dealt",
        "corrections",
        {"command": VOID, "reason": "misdeal"},
        {"command": VOID, "reason": "fouled shoe"},
    ),
]


@pytest.mark.parametrize(("setup", "path", "body", "other_body"), RETRIES)
def test_a_retry_gets_the_first_answer_and_another_body_is_refused(
    tablet: Tablet, table: Table, setup: str, path: str, body: Any, other_body: Any
) -> None:
    SETUPS[setup](tablet)
    first = tablet.raw(path, body, key="tablet-3-0042")
    assert first.status_code in (200, 201), first.json()
    after_first = recorded(table)
    retry = tablet.raw(path, body, key="tablet-3-0042")
    assert (retry.status_code, retry.json()) == (first.status_code, first.json())
    assert retry["Idempotent-Replayed"] == "true"
    assert recorded(table) == after_first
    reused = tablet.raw(path, other_body, key="tablet-3-0042")
    assert_refused(reused, 409, "idempotency_key_reused", table, after_first)


def test_a_refused_command_leaves_its_key_free_for_the_corrected_retry(
    tablet: Tablet, table: Table
) -> None:
    betting(tablet)
    refused = tablet.raw("siete/place-wager", {"box": 1, "amount": 5}, key="k-7")
    assert refused.json()["code"] == "stake_below_minimum"
    accepted = tablet.raw("siete/place-wager", {"box": 1, "amount": 20}, key="k-7")
    assert accepted.status_code == 201, accepted.json()
    assert TableEvent.objects.get(table=table, type="wager.placed").idempotency_key == "k-7"


def test_a_key_that_is_not_printable_is_refused(tablet: Tablet, table: Table) -> None:
    betting(tablet)
    before = recorded(table)
    response = tablet.raw("siete/place-wager", {"box": 1, "amount": 20}, key="a\tb")
    assert_refused(response, 400, "invalid_idempotency_key", table, before)


# --- 5. Face-down cards stay secret until revealed ---------------------------------------


def test_no_face_down_card_is_in_any_live_answer_before_it_is_revealed(
    client_for: Any, tablet: Tablet, table: Table, pit_boss_paula: User
) -> None:
    wagered(tablet)
    answers = [tablet.send("record_card", card=c, face_up=False) for c in ("3O", "6C", "4E")]
    answers.append(tablet.send("request_draw", box=1))
    answers.append(tablet.send("record_card", card="2B"))  # face up: everybody sees it
    answers.append(tablet.send("stand", box=1))
    boss = Tablet(client_for(pit_boss_paula), table, "siete")
    seen = " ".join([str(answer) for answer in answers] + [tablet.live_text(), boss.live_text()])
    assert "2B" in seen
    for secret in ("3O", "6C", "4E"):
        assert secret not in seen
    revealed = tablet.send("reveal", box=2)
    assert "6C" in str(revealed)
    assert "3O" not in str(revealed)
    assert "4E" not in tablet.live_text()
