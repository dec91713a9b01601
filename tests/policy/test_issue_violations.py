"""Each hole found on the floor, as a named test: who may change limits, paytable and the
clock, who voids a slip, who grants a role, who approves."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from reports.models import Slip
from tables import roles
from tables.models import CorrectionRequest, RoleGrant, Table, TableEvent
from tables.services import engine_state
from tests.conftest import make_user
from tests.policy.floor import ASSIGNED_DEALER, OTHER_DEALER, PolicyFloor, build_floor

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor() -> PolicyFloor:
    return build_floor()


def log_size(table: Table) -> int:
    return TableEvent.objects.filter(table=table).count()


def test_a_dealer_cannot_rewrite_the_limits_and_paytable_of_his_table(floor: PolicyFloor) -> None:
    before = log_size(floor.siete)
    settings = {"min_stake": 10, "max_stake": 100000, "chip": 5, "paytable": {"real": "10:1"}}
    response = floor.client(ASSIGNED_DEALER).post(
        f"/api/tables/{floor.siete.pk}/siete/update-settings", {"settings": settings}, format="json"
    )
    assert (response.status_code, response.json()["code"]) == (403, "permission_denied")
    assert log_size(floor.siete) == before
    state = engine_state.current_state(floor.siete)
    assert state.settings.max_stake == 500


def test_a_pit_boss_sets_the_limits_alone(floor: PolicyFloor) -> None:
    settings = {"min_stake": 10, "max_stake": 1000, "chip": 5}
    response = floor.client("pit boss").post(
        f"/api/tables/{floor.siete.pk}/siete/update-settings", {"settings": settings}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert engine_state.current_state(floor.siete).settings.max_stake == 1000


def test_a_paytable_change_needs_a_second_pit_boss(floor: PolicyFloor) -> None:
    settings = {"min_stake": 10, "max_stake": 500, "chip": 5, "paytable": {"real": "10:1"}}
    url = f"/api/tables/{floor.siete.pk}/siete/update-settings"
    alone = floor.client("pit boss").post(url, {"settings": settings}, format="json")
    assert (alone.status_code, alone.json()["code"]) == (409, "needs_approval")
    asked = floor.client("pit boss").post(
        f"/api/tables/{floor.siete.pk}/corrections",
        {"command": {"type": "update_settings", "data": {"settings": settings}}, "reason": "promo"},
        format="json",
    )
    assert asked.status_code == 201, asked.json()
    own = floor.client("pit boss").post(f"/api/corrections/{asked.json()['id']}/approve")
    assert (own.status_code, own.json()["code"]) == (403, "own_request")
    second = floor.client("pit boss")
    second.force_authenticate(floor.second_pit_boss)
    approved = second.post(
        f"/api/corrections/{asked.json()['id']}/approve", {"note": "checked"}, format="json"
    )
    assert approved.status_code == 200, approved.json()
    assert str(engine_state.current_state(floor.siete).settings.ratio("real")) == "10"
    correction = CorrectionRequest.objects.get(pk=asked.json()["id"])
    assert (correction.decided_by, correction.decision_note) == (floor.second_pit_boss, "checked")


def test_a_tie_rule_change_by_a_dealer_cannot_even_be_asked_for(floor: PolicyFloor) -> None:
    settings = {"min_stake": 10, "max_stake": 500, "chip": 5, "ties": "bank"}
    asked = floor.client(ASSIGNED_DEALER).post(
        f"/api/tables/{floor.siete.pk}/corrections",
        {"command": {"type": "update_settings", "data": {"settings": settings}}, "reason": "x"},
        format="json",
    )
    assert (asked.status_code, asked.json()["code"]) == (403, "permission_denied")


def test_a_dealer_cannot_fold_a_stud_player_on_the_clock(floor: PolicyFloor) -> None:
    dealer = floor.client(OTHER_DEALER)  # the Stud table's own dealer
    base = f"/api/tables/{floor.stud.pk}"
    for seat, player in ((1, "ana"), (2, "bruno")):
        dealer.post(f"{base}/seats/sit", {"seat": seat, "player": player, "buy_in": 500}, "json")
    assert dealer.post(f"{base}/rounds").status_code == 201
    before = log_size(floor.stud)
    clocked = dealer.post(f"{base}/stud/clock-expired", {"seat": 1}, format="json")
    assert (clocked.status_code, clocked.json()["code"]) == (403, "permission_denied")
    assert log_size(floor.stud) == before


def test_one_pit_boss_cannot_void_an_issued_fill_slip_alone_with_a_typed_name(
    floor: PolicyFloor,
) -> None:
    url = f"/api/reports/slips/fill/{floor.fill_number}/void"
    body = {"reason": "wrong table", "requested_by": "ghost"}
    asked = floor.client("pit boss").post(url, body, format="json")
    assert asked.status_code == 201, asked.json()
    assert asked.json()["requested_by"] == "pit_boss"
    assert Slip.objects.get(number=floor.fill_number).voided is False
    own = floor.client("pit boss").post(f"/api/corrections/{asked.json()['id']}/approve")
    assert (own.status_code, own.json()["code"]) == (403, "own_request")
    assert Slip.objects.get(number=floor.fill_number).voided is False
    second = floor.client("pit boss")
    second.force_authenticate(floor.second_pit_boss)
    done = second.post(f"/api/corrections/{asked.json()['id']}/approve", {"note": "ok"}, "json")
    assert done.status_code == 200, done.json()
    slip = Slip.objects.get(number=floor.fill_number)
    assert (slip.voided, slip.number) == (True, floor.fill_number)
    void = TableEvent.objects.filter(table=floor.siete, type__endswith="voided").last()
    assert void is not None
    assert (void.payload["requested_by"], void.payload["approved_by"]) == (
        "pit_boss", "second_pit_boss",
    )  # fmt: skip


def test_the_admin_cannot_grant_himself_the_pit_boss_role(floor: PolicyFloor) -> None:
    admin: User = floor.people["admin"]
    asked = floor.client("admin").post(
        "/api/role-grants",
        {"username": admin.username, "role": roles.PIT_BOSS, "reason": "covering"},
        format="json",
    )
    assert (asked.status_code, asked.json()["code"]) == (403, "own_role_change")
    assert not roles.has_role(User.objects.get(pk=admin.pk), roles.PIT_BOSS)


def test_a_role_grant_needs_a_second_admin_and_never_makes_an_admin_operational(
    floor: PolicyFloor,
) -> None:
    newcomer = make_user("newcomer")
    second_admin = make_user("second_admin", roles.ADMIN)
    asked = floor.client("admin").post(
        "/api/role-grants",
        {"username": "newcomer", "role": roles.CASHIER, "reason": "hired"},
        format="json",
    )
    assert asked.status_code == 201, asked.json()
    url = f"/api/role-grants/{asked.json()['id']}/approve"
    assert floor.client("admin").post(url).json()["code"] == "own_request"
    other = floor.client("admin")
    other.force_authenticate(second_admin)
    assert other.post(url, {"note": "contract seen"}, format="json").status_code == 200
    assert roles.roles_of(User.objects.get(pk=newcomer.pk)) == {roles.CASHIER}
    assert RoleGrant.objects.get().decision_note == "contract seen"
    operational = floor.client("admin").post(
        "/api/role-grants",
        {"username": "second_admin", "role": roles.AUDITOR, "reason": "both hats"},
        format="json",
    )
    assert operational.json()["code"] == "admin_holds_no_operational_role"


def test_the_admin_cannot_approve_corrections_or_bindings(floor: PolicyFloor) -> None:
    admin = floor.client("admin")
    for url in ("/api/corrections/1/approve", "/api/devices/bindings/1/approve"):
        response = admin.post(url)
        assert (response.status_code, response.json()["code"]) == (403, "permission_denied")


def test_a_dealer_offered_only_the_buttons_he_may_press(floor: PolicyFloor) -> None:
    dealer = floor.client(ASSIGNED_DEALER).get(f"/api/tables/{floor.siete.pk}").json()["state"]
    boss = floor.client("pit boss").get(f"/api/tables/{floor.siete.pk}").json()["state"]
    auditor = floor.client("auditor").get(f"/api/tables/{floor.siete.pk}").json()["state"]
    assert "update_settings" not in {entry["type"] for entry in dealer["legal"]}
    assert "update_settings" in {entry["type"] for entry in boss["legal"]}
    assert "start_round" in dealer["allowed"]
    assert (auditor["legal"], auditor["allowed"]) == ([], [])
