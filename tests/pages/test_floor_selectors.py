"""The pit boss's floor, as data: tiles, the alert feed and the approvals queue."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User

from tables.engine import siete
from tables.engine.errors import RuleError
from tables.models import Table
from tables.pages import floor_alerts, floor_approvals, floor_tiles
from tables.services.corrections import correction_request
from tests.pages.supervision_floor import (
    LiveFloor,
    live_floor,
    play_rounds,
    start_a_round_with_a_face_down_card,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor(
    dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User, cashier_carmen: User
) -> LiveFloor:
    return live_floor(dealer_dora, pit_boss_paula, pit_boss_pedro, cashier_carmen)


def tile_of(table: Table) -> floor_tiles.FloorTile:
    table.refresh_from_db()
    return floor_tiles.floor_tile(table)


def test_every_table_has_a_tile_in_name_order(floor: LiveFloor) -> None:
    names = [tile.name for tile in floor_tiles.floor_tiles()]
    assert names == ["Stud-1", "SyM-1"]


def test_a_closed_table_shows_closed_with_its_limits_and_no_shift(floor: LiveFloor) -> None:
    tile = tile_of(floor.stud)
    assert tile.status == floor_tiles.CLOSED
    assert tile.limits == (("small_bet", 10), ("big_bet", 20), ("ante", 1))
    assert tile.shift is None
    assert tile.dealer is None


def test_an_open_table_shows_its_dealer_its_round_and_the_shift_so_far(floor: LiveFloor) -> None:
    house = play_rounds(floor, 4)
    start_a_round_with_a_face_down_card(floor)
    tile = tile_of(floor.table)
    assert tile.status == floor_tiles.IN_ROUND
    assert tile.dealer == floor.dealer.username
    assert tile.limits == (("min_stake", 10), ("max_stake", 500))
    assert tile.round_number == 5
    assert tile.round_phase is not None
    assert tile.hands_this_hour == 5
    shift = tile.shift
    assert shift is not None
    assert shift.win == house
    assert shift.win_from_rounds
    assert shift.drop_estimated
    assert shift.theoretical_win is not None
    assert shift.band["applicable"] is True
    assert [level["confidence"] for level in shift.band["levels"]] == ["95", "99"]


def test_the_tile_says_nothing_of_a_face_down_card(floor: LiveFloor) -> None:
    start_a_round_with_a_face_down_card(floor)
    tile = tile_of(floor.table)
    assert "7O" not in json.dumps(tile.__dict__, default=str)


def test_a_shoe_reading_a_dealt_card_again_holds_the_table(floor: LiveFloor) -> None:
    driver = start_a_round_with_a_face_down_card(floor)
    driver.do(siete.RecordCard("7O", source="shoe"), "shoe")
    assert tile_of(floor.table).status == floor_tiles.HELD
    (alert,) = floor_alerts.alert_feed(table_id=floor.table.pk)
    assert alert.code == "duplicate_card"
    # The message names the card read twice, and the first read is still face down.
    assert alert.message is None


def test_an_acknowledged_alert_leaves_the_open_feed(floor: LiveFloor) -> None:
    driver = start_a_round_with_a_face_down_card(floor)
    driver.do(siete.RecordCard("7O", source="shoe"), "shoe")
    (alert,) = floor_alerts.alert_feed()
    done = floor_alerts.feed_acknowledge(alert_id=alert.alert_id, viewer=floor.pit_boss)
    assert done.acknowledged_by == floor.pit_boss.username
    assert floor_alerts.alert_feed() == []
    assert len(floor_alerts.alert_feed(open_only=False)) == 1


def request_a_void(floor: LiveFloor, by: User) -> floor_approvals.Approval:
    correction_request(
        table_id=floor.table.pk,
        command_type="void_round",
        command_data={"reason": "wrong deck"},
        reason="The dealer used the wrong deck.",
        requested_by=by,
    )
    (approval,) = floor_approvals.approvals_queue()
    return approval


def test_a_correction_waits_in_the_queue_with_who_asked_why_and_what(floor: LiveFloor) -> None:
    start_a_round_with_a_face_down_card(floor)
    approval = request_a_void(floor, floor.pit_boss)
    assert approval.kind == floor_approvals.CORRECTION
    assert approval.requested_by == floor.pit_boss.username
    assert approval.reason == "The dealer used the wrong deck."
    assert approval.change["command"] == "void_round"
    assert approval.round_number == 1
    assert not approval.can_decide(floor.pit_boss)
    assert approval.can_decide(floor.other_pit_boss)
    assert not approval.can_decide(floor.dealer)


def test_the_requester_cannot_approve_and_another_pit_boss_can(floor: LiveFloor) -> None:
    start_a_round_with_a_face_down_card(floor)
    approval = request_a_void(floor, floor.pit_boss)
    with pytest.raises(RuleError) as refused:
        floor_approvals.approval_decide(
            kind=approval.kind,
            approval_id=approval.approval_id,
            viewer=floor.pit_boss,
            approve=True,
        )
    assert refused.value.code == "own_request"
    floor_approvals.approval_decide(
        kind=approval.kind,
        approval_id=approval.approval_id,
        viewer=floor.other_pit_boss,
        approve=True,
    )
    assert floor_approvals.approvals_queue() == []
    assert tile_of(floor.table).status == floor_tiles.OPEN


def test_a_refusal_keeps_the_note(floor: LiveFloor) -> None:
    start_a_round_with_a_face_down_card(floor)
    approval = request_a_void(floor, floor.dealer)
    floor_approvals.approval_decide(
        kind=approval.kind,
        approval_id=approval.approval_id,
        viewer=floor.pit_boss,
        approve=False,
        note="The deck is right.",
    )
    from tables.models import CorrectionRequest

    refused = CorrectionRequest.objects.get(pk=approval.approval_id)
    assert (refused.status, refused.decision_note) == ("refused", "The deck is right.")
