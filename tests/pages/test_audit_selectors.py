"""The auditor's desk, as data: stored reports and their hashes, the chains, a round's timeline."""

from __future__ import annotations

import hashlib

import pytest
from django.contrib.auth.models import User
from rest_framework.exceptions import PermissionDenied

from reports.pages import audit_desk
from reports.services.storing import produce_report
from tables.services import custody
from tables.services.corrections import correction_approve, correction_request
from tests.pages.supervision_floor import (
    LiveFloor,
    live_floor,
    play_rounds,
    start_a_round_with_a_face_down_card,
)
from tests.reports.custody_floor import OPENING_CHIPS, Floor, past_shift

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor(
    dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User, cashier_carmen: User
) -> LiveFloor:
    return live_floor(dealer_dora, pit_boss_paula, pit_boss_pedro, cashier_carmen, opened=False)


def test_a_stored_report_is_listed_with_the_hash_of_each_download(floor: LiveFloor) -> None:
    key = past_shift(
        Floor(floor.table, floor.dealer, floor.pit_boss, floor.other_pit_boss, floor.cashier)
    )
    report = produce_report("table_shift", key, table=floor.refresh())
    (row,) = audit_desk.report_rows(gaming_day=key.gaming_day, kind="table_shift")
    assert (row.report_id, row.table, row.shift) == (report.pk, "SyM-1", key.shift)
    assert row.content_hash == report.content_hash
    hashes = {fmt: digest for _, fmt, _, digest in row.renderings}
    pdf = report.renderings.get(format="pdf")
    assert hashes["pdf"] == hashlib.sha256(bytes(pdf.content)).hexdigest()
    assert set(hashes) == {"json", "csv", "pdf"}
    assert audit_desk.report_rows(kind="cashier") == []


def test_a_tables_chain_verifies_to_its_head_hash(floor: LiveFloor) -> None:
    result = audit_desk.table_verification(floor.refresh())
    assert result.ok
    assert (result.head_seq, result.head_hash) == (floor.table.head_seq, floor.table.head_hash)


def test_a_finished_rounds_timeline_has_every_event_and_the_engines_replay(
    floor: LiveFloor,
) -> None:
    play_rounds_open(floor)
    timeline = audit_desk.round_timeline(floor.refresh(), 1)
    assert "round.opened" in [entry.type for entry in timeline.entries]
    assert {entry.source for entry in timeline.entries} >= {"tablet", "shoe"}
    assert all(entry.recorded_at and entry.occurred_at for entry in timeline.entries)
    assert {entry.actor for entry in timeline.entries} == {floor.dealer.username}
    assert timeline.replay_matches


def play_rounds_open(floor: LiveFloor) -> None:
    custody.custody_open(table_id=floor.table.pk, pit_boss=floor.pit_boss, chips=OPENING_CHIPS)
    custody.count_confirm(table_id=floor.table.pk, dealer=floor.dealer, closing=False)
    play_rounds(floor, 2)


def test_a_round_in_play_has_no_timeline(floor: LiveFloor) -> None:
    play_rounds_open(floor)
    start_a_round_with_a_face_down_card(floor)
    with pytest.raises(PermissionDenied):
        audit_desk.round_timeline(floor.refresh(), 3)


def test_a_voided_rounds_timeline_names_who_asked_and_who_approved(floor: LiveFloor) -> None:
    play_rounds_open(floor)
    start_a_round_with_a_face_down_card(floor)
    correction = correction_request(
        table_id=floor.table.pk,
        command_type="void_round",
        command_data={"reason": "wrong deck"},
        reason="Wrong deck.",
        requested_by=floor.dealer,
    )
    correction_approve(correction_id=correction.pk, approver=floor.pit_boss)
    timeline = audit_desk.round_timeline(floor.refresh(), 3)
    (fixed,) = timeline.corrections
    assert (fixed["requested_by"], fixed["decided_by"]) == (
        floor.dealer.username,
        floor.pit_boss.username,
    )
    assert timeline.status == "voided"
    assert timeline.replay_matches
