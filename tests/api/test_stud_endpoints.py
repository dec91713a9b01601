"""Every Seven-Card Stud endpoint of the API: success, refusals, roles, retries, secrecy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from tables.engine.stud.commands import RecordCard
from tables.games import binding_for
from tables.models import Round, Seat, Table, TableEvent
from tables.services.commands import table_command
from tests.api.game_clients import (
    STUD_SETTINGS,
    Tablet,
    approve,
    ask_correction,
    assert_refused,
    open_table,
    recorded,
    signed_in_as,
)

pytestmark = pytest.mark.django_db
# The commands with an endpoint of their own, as the binding routes them.
STUD_COMMANDS = binding_for("seven_card_stud").routed_commands
APPROVAL_COMMANDS = ("void_hand", "kill_hand", "correct_held_card")
# Third street, dealt in order: two down cards each, then one up card each.
THIRD_STREET = ("2c", "3d", "4h", "5s", "6c", "7d", "9h", "Ts", "8c")
LATER_CARDS = ("Ah", "2d", "3h", "4s", "Kd", "Qc", "Jh", "Td", "9s", "8d", "7h", "6s", "5d", "4d")


@pytest.fixture(autouse=True)
def quick_password_hashing(settings: Any) -> None:
    """The personas' passwords are never checked here (forced sign-in): hash them cheaply."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def table(dealer_dora: User, pit_boss_paula: User) -> Table:
    return open_table("Stud-E", "seven_card_stud", STUD_SETTINGS, dealer_dora, pit_boss_paula)


@pytest.fixture
def tablet(client_for: Any, dealer_dora: User, table: Table) -> Tablet:
    return Tablet(client_for(dealer_dora), table, "stud")


@pytest.fixture
def boss(client_for: Any, pit_boss_paula: User, table: Table) -> Tablet:
    """The pit boss at the table: the clock is the pit boss's call (ARCHITECTURE 8)."""
    return Tablet(client_for(pit_boss_paula), table, "stud")


PIT_BOSS_COMMANDS = binding_for("seven_card_stud").pit_boss_commands


def sender(tablet: Tablet, boss: Tablet, path: str) -> Tablet:
    command = path.rsplit("/", 1)[-1].replace("-", "_")
    return boss if command in PIT_BOSS_COMMANDS else tablet


def act(tablet: Tablet, kind: str) -> dict[str, Any]:
    """The player to act takes `kind` at the amount the live view lists for it."""
    state = tablet.state()
    amounts = {option["action"]: option["amount"] for option in state["legal_actions"]}
    assert kind in amounts, (kind, state["legal_actions"])
    return tablet.send(kind, seat=state["to_act"], amount=amounts[kind])


def seated(tablet: Tablet) -> None:
    for seat, player in ((1, "ana"), (2, "bruno"), (3, "carla")):
        tablet.post("seats/sit", seat=seat, player=player, buy_in=500)


def started(tablet: Tablet) -> None:
    seated(tablet)
    tablet.post("rounds")


def third_street(tablet: Tablet) -> None:
    """Seat 3 shows the lowest up card (8c) and must bring in."""
    started(tablet)
    for card in THIRD_STREET:
        tablet.send("record_card", card=card)


def fourth_street_due(tablet: Tablet) -> None:
    third_street(tablet)
    act(tablet, "bring_in")
    act(tablet, "call")
    act(tablet, "call")


def fourth_street_bet(tablet: Tablet) -> None:
    fourth_street_due(tablet)
    for card in ("2d", "3h", "4s"):
        tablet.send("record_card", card=card)
    act(tablet, "bet")


def to_showdown(tablet: Tablet, hole_cards_known: bool = True) -> None:
    """Deal what is due and check (or call) around until the first hand is to be shown."""
    started(tablet)
    deck = list(THIRD_STREET + LATER_CARDS)
    for _ in range(100):
        state = tablet.state()
        if state["next_to_show"] is not None:
            return
        if state["card_due"] is not None:
            card = deck.pop(0)
            unknown = not hole_cards_known and state["card_due"]["face"] == "down"
            tablet.send("record_card", card=None if unknown else card)
        else:
            kinds = [option["action"] for option in state["legal_actions"]]
            act(tablet, next(kind for kind in ("check", "call", "bring_in") if kind in kinds))
    raise AssertionError("no showdown reached")


def unknown_showdown(tablet: Tablet) -> None:
    to_showdown(tablet, hole_cards_known=False)


SETUPS: dict[str, Callable[[Tablet], None]] = {
    "empty": lambda tablet: None,
    "seated": seated,
    "started": started,
    "third_street": third_street,
    "fourth_street_due": fourth_street_due,
    "fourth_street_bet": fourth_street_bet,
    "showdown": to_showdown,
    "unknown_showdown": unknown_showdown,
}


# --- 1. Every endpoint in a success path -------------------------------------------------

HAND_COMMANDS = (
    "record_card", "burn", "bring_in", "complete", "raise", "fold", "call", "check", "bet",
    "clock_expired", "show", "muck", "award_pots",
)  # fmt: skip


SHOWDOWN_REQUESTS = ("ask_to_see", "show_mucked")


def test_every_stud_command_has_an_endpoint_and_is_covered_here() -> None:
    assert set(HAND_COMMANDS) | set(SHOWDOWN_REQUESTS) == set(STUD_COMMANDS)


def test_a_caller_asks_to_see_and_only_a_pit_boss_shows_a_mucked_hand(
    client_for: Any, tablet: Tablet, table: Table, pit_boss_paula: User
) -> None:
    tablet.post("seats/sit", seat=1, player="ana", buy_in=500)
    tablet.post("seats/sit", seat=2, player="bruno", buy_in=500)
    tablet.post("rounds")
    deck = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
    while (state := tablet.state())["phase"] != "showdown":
        if state["card_due"] is not None:
            tablet.send("record_card", card=deck.pop())
            continue
        kinds = {option["action"] for option in state["legal_actions"]}
        seventh_bet = state["street"] == 7 and "bet" in kinds
        act(
            tablet,
            "bet" if seventh_bet else next(k for k in ("check", "call", "bring_in") if k in kinds),
        )
    aggressor = tablet.state()["next_to_show"]
    caller = 2 if aggressor == 1 else 1
    tablet.send("ask_to_see", seat=aggressor, asked_by=caller)
    refused = tablet.send("muck", expect=409, seat=aggressor)
    assert refused["code"] == "show_requested"
    tablet.send("show", seat=aggressor)
    tablet.send("muck", seat=caller)
    by_dealer = tablet.send("show_mucked", expect=403, seat=caller)
    assert by_dealer["code"] == "permission_denied"
    boss = Tablet(client_for(pit_boss_paula), table, "stud")
    boss.send("show_mucked", seat=caller)
    awarded = tablet.send("award_pots")
    assert awarded["state"]["result"]["payouts"][0]["seat"] == aggressor


def test_a_hand_uses_every_betting_dealing_and_showdown_endpoint(
    tablet: Tablet, boss: Tablet, table: Table
) -> None:
    for seat, player in ((1, "ana"), (2, "bruno"), (3, "carla"), (4, "dave")):
        tablet.post("seats/sit", seat=seat, player=player, buy_in=500)
    assert tablet.post("rounds")["round"] == 1
    for card in ("2c", "3d", "4h", "Kd", "5s", "6c", "7d", "Qd", "9h", "Ts", "8c", "Jc"):
        tablet.send("record_card", card=card)
    act(tablet, "bring_in")  # seat 3, 8c
    act(tablet, "complete")  # seat 4
    act(tablet, "raise")  # seat 1
    act(tablet, "fold")  # seat 2
    act(tablet, "call")
    act(tablet, "call")
    tablet.send("burn", card="Ah")
    for card in ("2d", "3h", "4s"):
        tablet.send("record_card", card=card)
    act(tablet, "check")
    act(tablet, "bet")
    clocked = boss.send("clock_expired", seat=tablet.state()["to_act"])
    tablet.sent.append("clock_expired")
    assert "action.taken" in [event["type"] for event in clocked["events"]]
    act(tablet, "call")
    deck = ["5d", "6s", "7h", "8d", "9s", "Td", "Jh", "Qc", "4d", "5h"]
    while (state := tablet.state())["next_to_show"] is None:
        if state["card_due"] is not None:
            tablet.send("record_card", card=deck.pop())
        else:
            act(tablet, "check")
    first = tablet.state()["next_to_show"]
    tablet.send("show", seat=first)
    tablet.send("muck", seat=tablet.state()["next_to_show"])
    awarded = tablet.send("award_pots")
    assert awarded["state"]["phase"] == "complete"
    assert Round.objects.get(table=table).status == Round.Status.SETTLED
    closed = tablet.post("rounds/close", expect=200)
    assert closed == {"round": 1, "status": Round.Status.CLOSED}
    assert set(tablet.sent) == set(HAND_COMMANDS)
    stacks = dict(Seat.objects.filter(table=table).values_list("number", "stack"))
    rake = sum(int(pot.get("rake", 0)) for pot in awarded["state"]["result"]["pots"])
    assert sum(stacks.values()) + rake == 2000


def test_players_sit_add_chips_and_leave_through_the_seat_endpoints(
    tablet: Tablet, table: Table
) -> None:
    sat = tablet.post("seats/sit", seat=2, player="bruno", buy_in=300)
    assert (sat["number"], sat["player"], sat["stack"]) == (2, "bruno", 300)
    added = tablet.post("seats/chips", seat=2, amount=50)
    assert added["stack"] == 350
    left = tablet.post("seats/leave", seat=2)
    assert left == {"seat": 2, "player": "bruno", "stack": 350}
    types = TableEvent.objects.filter(table=table).values_list("type", flat=True)
    assert list(types.order_by("seq"))[-5:] == [
        "custody.buy_in",
        "table.player_seated",
        "custody.buy_in",
        "table.chips_added",
        "table.player_left",
    ]


@pytest.mark.parametrize("command", APPROVAL_COMMANDS)
def test_a_correction_is_refused_as_a_direct_command(
    tablet: Tablet, table: Table, command: str
) -> None:
    third_street(tablet)
    before = recorded(table)
    response = tablet.raw("commands", {"type": command, "data": {"reason": "x", "seat": 1}})
    assert_refused(response, 409, "needs_approval", table, before)
    no_route = tablet.raw(f"stud/{command.replace('_', '-')}", {"reason": "x", "seat": 1})
    assert_refused(no_route, 404, "not_found", table, before)


CORRECTIONS: list[tuple[str, dict[str, Any], str]] = [
    ("void_hand", {"reason": "misdeal", "cause": "misdeal"}, "hand.voided"),
    ("kill_hand", {"seat": 1, "reason": "exposed his hole cards"}, "hand.killed"),
]


@pytest.mark.parametrize(("command", "data", "event"), CORRECTIONS)
def test_a_correction_is_applied_when_a_second_pit_boss_approves(
    client_for: Any, tablet: Tablet, table: Table, pit_boss_paula: User, pit_boss_pedro: User,
    command: str, data: dict[str, Any], event: str,
) -> None:  # fmt: skip
    third_street(tablet)
    correction = ask_correction(client_for(pit_boss_paula), table, command, data)
    before = recorded(table)
    own = client_for(pit_boss_paula).post(f"/api/corrections/{correction}/approve")
    assert_refused(own, 403, "own_request", table, before)
    approved = approve(client_for(pit_boss_pedro), correction)
    types = [appended["type"] for appended in approved["events"]]
    assert types[0] == "correction.approved"
    assert event in types
    for hole_card in THIRD_STREET[:6]:
        assert hole_card not in str(approved) + tablet.live_text()


def test_a_duplicate_read_by_the_shoe_is_corrected_through_an_approved_correction(
    client_for: Any, tablet: Tablet, table: Table, dealer_dora: User, pit_boss_pedro: User
) -> None:
    started(tablet)
    for card in ("2c", "3d", "2c"):  # the shoe reads the first card again: the hand is held
        table_command(
            table_id=table.pk,
            command=RecordCard(card, source="shoe"),
            actor=None,
            source=TableEvent.Source.SHOE,
        )
    assert tablet.state()["held"] is True
    before = recorded(table)
    held = tablet.raw("stud/record-card", {"card": "4h"})
    assert_refused(held, 409, "hand_held", table, before)
    correction = ask_correction(client_for(dealer_dora), table, "correct_held_card", {"card": "4h"})
    approved = approve(client_for(pit_boss_pedro), correction)
    assert approved["state"]["held"] is False
    assert TableEvent.objects.filter(table=table, type="card.corrected").exists()


def test_a_void_for_misdeal_after_substantial_action_is_refused_at_approval(
    client_for: Any, tablet: Tablet, table: Table, dealer_dora: User, pit_boss_pedro: User
) -> None:
    fourth_street_due(tablet)
    for card in ("Ah", "2d", "3h"):
        tablet.send("record_card", card=card)
    act(tablet, "bet")
    act(tablet, "call")
    data = {"reason": "misdeal", "cause": "misdeal"}
    correction = ask_correction(client_for(dealer_dora), table, "void_hand", data)
    before = recorded(table)
    refused = client_for(pit_boss_pedro).post(f"/api/corrections/{correction}/approve")
    assert_refused(refused, 409, "substantial_action", table, before)


def test_the_tablet_enters_no_card_while_a_shoe_feeds_the_table(
    tablet: Tablet, table: Table, pit_boss_paula: User, pit_boss_pedro: User
) -> None:
    from django.utils import timezone

    from devices.models import Device, DeviceBinding

    shoe = Device.objects.create(
        serial="SIM-S", status=Device.Status.ACTIVE, online=True, enrolled_at=timezone.now()
    )
    DeviceBinding.objects.create(
        device=shoe, table=table, requested_by=pit_boss_paula, requested_at=timezone.now(),
        approved_by=pit_boss_pedro, approved_at=timezone.now(),
    )  # fmt: skip
    started(tablet)
    before = recorded(table)
    for path in ("stud/record-card", "stud/burn"):
        refused = tablet.raw(path, {"card": "2c"})
        assert_refused(refused, 409, "shoe_feeds_table", table, before)


# --- 2. Every refusal, with the uniform body and nothing recorded -------------------------

REFUSALS: list[tuple[str, str, Any, int, str]] = [
    ("started", "stud/record-card", {"card": "1x"}, 422, "invalid_card"),
    ("started", "stud/record-card", {"card": "2c", "seat": 2}, 409, "card_not_due"),
    ("started", "stud/record-card", {"card": "2c", "source": "shoe"}, 422, "invalid_source"),
    ("started", "stud/record-card", {"card": "2c", "exposed": "yes"}, 422, "invalid_field"),
    ("started", "stud/burn", {"card": "2c"}, 409, "card_not_due"),
    ("started", "stud/fold", {"seat": 1}, 409, "not_betting_now"),
    ("third_street", "stud/record-card", {"card": "Ah"}, 409, "card_not_due"),
    ("third_street", "stud/check", {"seat": 3}, 409, "bring_in_required"),
    ("third_street", "stud/bring-in", {"seat": 3, "amount": 15}, 422, "wrong_amount"),
    ("third_street", "stud/complete", {"seat": 3, "amount": 10**6}, 422, "insufficient_chips"),
    ("third_street", "stud/call", {"seat": "three"}, 422, "invalid_field"),
    ("third_street", "stud/bet", {"seat": 3, "amount": 20}, 409, "bring_in_required"),
    ("third_street", "stud/show", {"seat": 1}, 409, "not_showdown"),
    ("third_street", "stud/muck", {"seat": 1}, 409, "not_showdown"),
    ("third_street", "stud/award-pots", {}, 409, "hand_not_over"),
    ("third_street", "stud/clock-expired", {"seat": 1}, 409, "not_your_turn"),
    ("fourth_street_due", "stud/record-card", {"card": "2c"}, 422, "duplicate_card"),
    ("fourth_street_due", "stud/record-card", {"card": None}, 422, "unknown_up_card"),
    ("fourth_street_due", "stud/raise", {"seat": 1, "amount": 40}, 409, "not_betting_now"),
    ("fourth_street_bet", "stud/check", {"seat": 2}, 409, "not_your_turn"),
    ("fourth_street_bet", "stud/check", {"seat": 3}, 409, "cannot_check"),
    ("fourth_street_bet", "stud/call", {"seat": 3, "amount": 15}, 422, "wrong_amount"),
    ("fourth_street_bet", "stud/bet", {"seat": 3, "amount": 20}, 409, "action_not_allowed"),
    ("showdown", "stud/award-pots", {}, 409, "showdown_not_finished"),
    ("unknown_showdown", "stud/show", None, 422, "unknown_cards_at_showdown"),
    ("empty", "stud/fold", {"seat": 1}, 409, "hand_over"),
    ("empty", "stud/start-hand", {"seats": []}, 404, "not_found"),
    ("seated", "commands", {"type": "start_hand", "data": {}}, 409, "use_round_open"),
    ("seated", "commands", {"type": "fly", "data": {}}, 422, "unknown_command"),
    ("started", "rounds", {}, 409, "hand_in_progress"),
    ("empty", "rounds", {}, 409, "not_enough_players"),
    ("started", "rounds/close", {}, 409, "round_not_settled"),
    ("empty", "rounds/close", {}, 409, "no_round_in_play"),
    ("empty", "seats/sit", {"seat": 9, "player": "x", "buy_in": 100}, 422, "unknown_seat"),
    ("seated", "seats/sit", {"seat": 1, "player": "dave", "buy_in": 100}, 409, "seat_taken"),
    ("seated", "seats/sit", {"seat": 4, "player": "ana", "buy_in": 100}, 409, "already_seated"),
    ("empty", "seats/sit", {"seat": 1, "player": "x"}, 400, "invalid_input"),
    ("empty", "seats/chips", {"seat": 4, "amount": 100}, 409, "seat_empty"),
    ("started", "seats/leave", {"seat": 1}, 409, "hand_in_progress"),
    ("empty", "seats/leave", {"seat": 1}, 409, "seat_empty"),
    (
        "third_street",
        "corrections",
        {"command": {"type": "call", "data": {"seat": 1}}, "reason": "x"},
        422,
        "not_a_correction",
    ),
    (
        "third_street",
        "corrections",
        {"command": {"type": "void_hand", "data": {"reason": "x", "cause": "?"}}, "reason": "x"},
        422,
        "invalid_field",
    ),
]


@pytest.mark.parametrize(("setup", "path", "body", "status", "code"), REFUSALS)
def test_a_refused_request_answers_with_its_code_and_records_nothing(
    tablet: Tablet, boss: Tablet, table: Table, setup: str, path: str, body: Any, status: int,
    code: str,
) -> None:  # fmt: skip
    SETUPS[setup](tablet)
    if body is None:  # the hand due to show, with its face-down cards not given
        body = {"seat": tablet.state()["next_to_show"]}
    before = recorded(table)
    assert_refused(sender(tablet, boss, path).raw(path, body), status, code, table, before)


BODY_ENDPOINTS = [f"stud/{name.replace('_', '-')}" for name in STUD_COMMANDS] + [
    "commands",
    "corrections",
    "seats/sit",
    "seats/chips",
    "seats/leave",
]


@pytest.mark.parametrize("path", BODY_ENDPOINTS)
def test_a_body_that_is_not_json_is_refused_as_malformed(
    tablet: Tablet, boss: Tablet, table: Table, path: str
) -> None:
    before = recorded(table)
    client = sender(tablet, boss, path).client
    response = client.post(tablet.url(path), "{{", content_type="application/json")
    assert_refused(response, 400, "malformed_request", table, before)


# --- 3. Permissions by role --------------------------------------------------------------

PERSONAS = [
    ("dealer_dora", None),  # assigned to the table
    ("dealer_dan", 403),  # a dealer, at another table
    ("pit_boss_paula", None),
    ("auditor_alba", 403),
    ("cashier_carmen", 403),
    (None, 401),
]
VOID = {"type": "void_hand", "data": {"reason": "misdeal"}}
WRITES: list[tuple[str, str, Any]] = [
    ("started", "stud/record-card", {"card": "2c"}),
    ("empty", "seats/sit", {"seat": 1, "player": "ana", "buy_in": 500}),
    ("seated", "rounds", {}),
    ("started", "corrections", {"command": VOID, "reason": "misdeal"}),
]


@pytest.mark.parametrize(("persona", "refused"), PERSONAS)
@pytest.mark.parametrize(("setup", "path", "body"), WRITES)
def test_only_the_tables_dealer_and_pit_bosses_write(
    request: pytest.FixtureRequest, tablet: Tablet, table: Table, setup: str, path: str,
    body: Any, persona: str | None, refused: int | None,
) -> None:  # fmt: skip
    SETUPS[setup](tablet)
    before = recorded(table)
    response = signed_in_as(request, persona, table).post(tablet.url(path), body, format="json")
    if refused is None:
        assert response.status_code == 201, response.json()
        assert recorded(table) != before
    else:
        codes = {401: "not_authenticated", 403: "permission_denied"}
        code = "not_your_table" if persona == "dealer_dan" else codes[refused]
        assert_refused(response, refused, code, table, before)


def test_only_another_pit_boss_decides_a_correction(
    request: pytest.FixtureRequest, client_for: Any, tablet: Tablet, table: Table,
    dealer_dora: User,
) -> None:  # fmt: skip
    started(tablet)
    correction = ask_correction(client_for(dealer_dora), table, "void_hand", {"reason": "x"})
    before = recorded(table)
    refusals = {
        "dealer_dora": (403, "permission_denied"),
        "auditor_alba": (403, "permission_denied"),
        "cashier_carmen": (403, "permission_denied"),
        None: (401, "not_authenticated"),
    }
    for persona, (status, code) in refusals.items():
        for decision in ("approve", "refuse"):
            url = f"/api/corrections/{correction}/{decision}"
            response = signed_in_as(request, persona, table).post(url, {"note": "n"}, format="json")
            assert_refused(response, status, code, table, before)
    approved = approve(signed_in_as(request, "pit_boss_pedro", table), correction)
    assert approved["state"]["phase"] == "voided"


# --- 4. Idempotent retries ---------------------------------------------------------------

RETRIES: list[tuple[str, str, Any, Any]] = [
    ("started", "stud/record-card", {"card": "2c"}, {"card": "3c"}),
    ("third_street", "stud/bring-in", {"seat": 3, "amount": 10}, {"seat": 3, "amount": 20}),
    (
        "empty",
        "seats/sit",
        {"seat": 1, "player": "ana", "buy_in": 500},
        {"seat": 1, "player": "ana", "buy_in": 400},
    ),
    ("seated", "seats/chips", {"seat": 1, "amount": 50}, {"seat": 1, "amount": 60}),
    ("seated", "seats/leave", {"seat": 1}, {"seat": 2}),
    ("seated", "rounds", {}, {"again": True}),
    ("started", "commands", {"type": "record_card", "data": {"card": "2c"}}, {"type": "burn"}),
]


@pytest.mark.parametrize(("setup", "path", "body", "other_body"), RETRIES)
def test_a_retry_gets_the_first_answer_and_another_body_is_refused(
    tablet: Tablet, table: Table, setup: str, path: str, body: Any, other_body: Any
) -> None:
    SETUPS[setup](tablet)
    first = tablet.raw(path, body, key="tablet-5-0007")
    assert first.status_code == 201, first.json()
    after_first = recorded(table)
    retry = tablet.raw(path, body, key="tablet-5-0007")
    assert (retry.status_code, retry.json()) == (201, first.json())
    assert retry["Idempotent-Replayed"] == "true"
    assert recorded(table) == after_first
    reused = tablet.raw(path, other_body, key="tablet-5-0007")
    assert_refused(reused, 409, "idempotency_key_reused", table, after_first)


def test_a_retried_approval_applies_the_correction_once(
    client_for: Any, tablet: Tablet, table: Table, dealer_dora: User, pit_boss_pedro: User
) -> None:
    started(tablet)
    correction = ask_correction(client_for(dealer_dora), table, "void_hand", {"reason": "x"})
    boss = client_for(pit_boss_pedro)
    url = f"/api/corrections/{correction}/approve"
    first = boss.post(url, HTTP_IDEMPOTENCY_KEY="pit-1")
    assert first.status_code == 200, first.json()
    after_first = recorded(table)
    retry = boss.post(url, HTTP_IDEMPOTENCY_KEY="pit-1")
    assert (retry.status_code, retry.json()) == (200, first.json())
    assert retry["Idempotent-Replayed"] == "true"
    assert recorded(table) == after_first
    assert TableEvent.objects.filter(table=table, type="hand.voided").count() == 1


# --- 5. Face-down cards stay secret until revealed ---------------------------------------


def test_no_hole_card_is_in_any_live_answer_before_the_showdown(
    client_for: Any, tablet: Tablet, table: Table, pit_boss_paula: User, auditor_alba: User
) -> None:
    started(tablet)
    answers = [tablet.send("record_card", card=card) for card in THIRD_STREET]
    answers.append(act(tablet, "bring_in"))
    boss = Tablet(client_for(pit_boss_paula), table, "stud")
    seen = " ".join([str(answer) for answer in answers] + [tablet.live_text(), boss.live_text()])
    for up_card in THIRD_STREET[6:]:
        assert up_card in seen
    for hole_card in THIRD_STREET[:6]:
        assert hole_card not in seen
    held_back = client_for(auditor_alba).get(f"/api/tables/{table.pk}/events").json()
    assert not [event for event in held_back if event["type"] == "card.dealt"]


def test_a_shown_hand_is_on_the_live_screen_and_a_mucked_one_never(
    tablet: Tablet, table: Table
) -> None:
    to_showdown(tablet)
    shower = tablet.state()["next_to_show"]
    shown = tablet.send("show", seat=shower)
    dealt = TableEvent.objects.filter(table=table, type="card.dealt")
    cards_of = {
        seat: [e.payload["card"] for e in dealt if e.payload.get("seat") == seat]
        for seat in (1, 2, 3)
    }
    assert all(card in str(shown) for card in cards_of[shower])
    mucker = tablet.state()["next_to_show"]
    tablet.send("muck", seat=mucker)
    hidden = [card for card in cards_of[mucker] if card not in str(tablet.state()["seats"])]
    assert len(hidden) == 3  # the two first down cards and the seventh-street card
    for card in hidden:
        assert card not in tablet.live_text()


# --- Figures past a 64-bit integer (they once reached the database: a 500) ---------------

BEYOND_64_BITS = 2**63


@pytest.mark.parametrize(
    ("setup", "path", "body"),
    [
        ("empty", "seats/sit", {"seat": 1, "player": "ana", "buy_in": BEYOND_64_BITS}),
        ("seated", "seats/chips", {"seat": 1, "amount": BEYOND_64_BITS}),
        ("empty", "seats/sit", {"seat": BEYOND_64_BITS, "player": "ana", "buy_in": 100}),
    ],
)
def test_an_amount_beyond_any_chip_count_is_refused_as_invalid_input(
    tablet: Tablet, table: Table, setup: str, path: str, body: Any
) -> None:
    SETUPS[setup](tablet)
    before = recorded(table)
    assert_refused(tablet.raw(path, body), 400, "invalid_input", table, before)
