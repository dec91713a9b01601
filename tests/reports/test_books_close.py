"""The shift's books close: a closed table stays closed until a new opener, and nothing is
played at it meanwhile."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from reports.services.storing import produce_report
from reports.shifts import ShiftKey, floor_clock
from tables.engine.errors import RuleError
from tables.engine.siete import commands as siete
from tables.models import Round, Seat, Table
from tables.services import custody, seating
from tables.services.commands import table_command
from tables.services.corrections import correction_approve, correction_request
from tables.services.custody.log import shift_ledger
from tables.services.floor import round_close, round_open, table_create, table_set_status
from tables.services.rebuild import rebuild_projections
from tests.reports.custody_floor import OPENING_CHIPS, Floor, close_books, open_books, past_shift

pytestmark = pytest.mark.django_db


def test_a_table_closed_with_a_closer_reopens_only_with_a_new_opener(
    floor: Floor, client_for: Any
) -> None:
    past_shift(floor)  # opener, a fill, the closer and the counted drop
    pit = client_for(floor.pit_boss)
    head = floor.refresh().head_seq
    response = pit.post(f"/api/tables/{floor.table.pk}/open")
    assert (response.status_code, response.json()["code"]) == (409, "opener_required")
    response = pit.post(f"/api/tables/{floor.table.pk}/rounds")
    assert (response.status_code, response.json()["code"]) == (409, "table_closed")
    response = pit.post(f"/api/reports/tables/{floor.table.pk}/opener", {}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "opening_count_required")
    assert floor.refresh().head_seq == head
    assert floor.table.status == Table.Status.CLOSED


def test_the_last_closer_carries_over_only_by_the_pit_boss_choice(
    floor: Floor, client_for: Any
) -> None:
    past_shift(floor)
    pit, dealer = client_for(floor.pit_boss), client_for(floor.dealer)
    table = floor.table.pk
    both = {"carry_over": True, "chips": {"5": 1}}
    response = pit.post(f"/api/reports/tables/{table}/opener", both, format="json")
    assert (response.status_code, response.json()["code"]) == (422, "count_or_carry_over")
    response = pit.post(f"/api/reports/tables/{table}/opener", {"carry_over": True}, format="json")
    assert (response.status_code, response.json()["type"]) == (201, "custody.opener_counted")
    assert floor.refresh().status == Table.Status.CLOSED  # until the dealer confirms
    response = dealer.post(f"/api/reports/tables/{table}/opener/confirm")
    assert response.status_code == 201
    opener = response.json()["payload"]
    assert (opener["carried_over"], opener["chips"]) == (True, {"5": 100, "25": 40, "100": 12})
    assert (opener["dealer"], opener["pit_boss"]) == ("dora", "paula")
    assert floor.refresh().status == Table.Status.OPEN


def test_the_dealer_confirms_his_own_opener_and_closer_with_his_login(
    floor: Floor, client_for: Any, dealer_dan: Any
) -> None:
    pit, dora, dan = (client_for(p) for p in (floor.pit_boss, floor.dealer, dealer_dan))
    table = floor.table.pk
    opener = {"chips": OPENING_CHIPS}
    assert pit.post(f"/api/reports/tables/{table}/opener", opener, format="json").status_code == 201
    head = floor.refresh().head_seq
    response = dan.post(f"/api/reports/tables/{table}/opener/confirm")
    assert (response.status_code, response.json()["code"]) == (403, "not_your_table")
    response = pit.post(f"/api/reports/tables/{table}/opener/confirm")
    assert (response.status_code, response.json()["code"]) == (403, "permission_denied")
    response = dora.post(f"/api/reports/tables/{table}/closer/confirm")
    assert (response.status_code, response.json()["code"]) == (409, "no_count_to_confirm")
    assert floor.refresh().head_seq == head
    response = dora.post(f"/api/reports/tables/{table}/opener/confirm")
    assert (response.status_code, response.json()["payload"]["dealer"]) == (201, "dora")
    closer = {"chips": OPENING_CHIPS}
    assert pit.post(f"/api/reports/tables/{table}/closer", closer, format="json").status_code == 201
    assert floor.refresh().status == Table.Status.CLOSED  # play stops at the count
    response = dora.post(f"/api/reports/tables/{table}/closer/confirm")
    assert (response.status_code, response.json()["type"]) == (201, "custody.closer")
    ledger = shift_ledger(floor.refresh(), ShiftKey.from_payload(response.json()["payload"]))
    assert ledger.opener is not None
    assert ledger.closer is not None
    assert (ledger.opener.dealer, ledger.closer.dealer) == ("dora", "dora")
    assert ledger.count is None


def test_nothing_is_recorded_at_a_closed_table(floor: Floor) -> None:
    _shift_with_a_round(floor, payout=None)
    _close(floor)
    head = floor.refresh().head_seq
    table = floor.table.pk
    for attempt in (
        lambda: round_open(table_id=table, actor=floor.dealer),
        lambda: custody.buy_in_record(table_id=table, amount=500, actor=floor.dealer),
        lambda: table_command(
            table_id=table, command=siete.RecordPayout(1, 20), actor=floor.dealer, source="tablet"
        ),
        lambda: correction_request(
            table_id=table,
            command_type="void_round",
            command_data={"reason": "late"},
            reason="late",
            requested_by=floor.pit_boss,
        ),
    ):
        with pytest.raises(RuleError) as refused:
            attempt()
        assert refused.value.code == "table_closed"
    assert floor.refresh().head_seq == head


def test_seat_buy_ins_at_a_stud_table_are_the_shift_estimated_drop(floor: Floor) -> None:
    stud = table_create(
        name="Stud-B", game="seven_card_stud", seat_count=8, settings={"small_bet": 20}
    )
    opened = open_books(stud.pk, dealer=floor.dealer, pit_boss=floor.pit_boss, chips={"5": 100})
    for seat in range(1, 6):
        seating.player_seat(
            table_id=stud.pk, seat=seat, player=f"p{seat}", buy_in=500, actor=floor.dealer
        )
    seating.chips_add(table_id=stud.pk, seat=1, amount=100, actor=floor.dealer)
    stud.refresh_from_db()
    ledger = shift_ledger(stud, ShiftKey.from_payload(opened.payload))
    assert ledger.estimated_drop == 5 * 500 + 100


def test_no_player_sits_down_at_a_stud_table_without_an_opener(floor: Floor) -> None:
    stud = table_create(
        name="Stud-C", game="seven_card_stud", seat_count=8, settings={"small_bet": 20}
    )
    table_set_status(table_id=stud.pk, status=Table.Status.OPEN, actor=floor.pit_boss)
    with pytest.raises(RuleError) as refused:
        seating.player_seat(table_id=stud.pk, seat=1, player="p1", buy_in=500, actor=floor.pit_boss)
    assert refused.value.code == "table_not_open"
    assert not Seat.objects.filter(table=stud).exclude(player_label="").exists()


def _shift_with_a_round(
    floor: Floor, *, typed_card: bool = False, payout: int | None = 10
) -> ShiftKey:
    """A past shift's opener and one settled round: box 1 stands on 7 against the bank's 5,
    and the dealer records a payout of 10 where the rules pay 20."""
    clock = floor_clock()
    key = clock.last_ended(timezone.now())
    moment = clock.bounds(key)[0] + timedelta(minutes=5)
    table = floor.table.pk
    open_books(
        table,
        dealer=floor.dealer,
        pit_boss=floor.pit_boss,
        chips=OPENING_CHIPS,
        occurred_at=moment,
    )
    round_open(table_id=table, actor=floor.dealer)
    first_source = "tablet" if typed_card else "shoe"
    for command, source in (
        (siete.PlaceWager(1, 20), "tablet"),
        (siete.RecordCard("7O", source=first_source), first_source),
        (siete.RecordCard("4C", source="shoe"), "shoe"),
        (siete.Stand(1), "tablet"),
        (siete.RevealBank(), "tablet"),
        (siete.RecordCard("1B", source="shoe"), "shoe"),
    ):
        table_command(table_id=table, command=command, actor=floor.dealer, source=source)
    if payout is not None:
        paid = siete.RecordPayout(1, payout)
        table_command(table_id=table, command=paid, actor=floor.dealer, source="tablet")
    return key


def _close(floor: Floor) -> None:
    close_books(
        floor.table.pk,
        dealer=floor.dealer,
        pit_boss=floor.pit_boss,
        chips=OPENING_CHIPS,
    )


def test_an_approved_payout_correction_settles_the_mismatch_it_corrects(floor: Floor) -> None:
    key = _shift_with_a_round(floor)
    round_close(table_id=floor.table.pk, actor=floor.dealer)  # corrected between rounds
    asked = correction_request(
        table_id=floor.table.pk,
        command_type="correct_payout",
        command_data={"box": 1, "amount": 20, "reason": "paid from the wrong stack"},
        reason="paid from the wrong stack",
        requested_by=floor.pit_boss,
    )
    correction_approve(correction_id=asked.pk, approver=floor.other_pit_boss)
    _close(floor)
    audit = produce_report("audit", key).document
    fields = ("round_id", "computed", "paid", "corrected", "requested_by", "approved_by")
    assert [tuple(row[name] for name in fields) for row in audit["payout_mismatches"]] == [
        ("1", 20, 10, True, "paula", "pedro")
    ]
    assert audit["findings"]["payout_mismatches"] == 0
    round_state = Round.objects.get(table=floor.table, number=1).state
    assert round_state["results"][0]["recorded_payout"] == 20


def test_typed_cards_without_a_shoe_read_are_not_counted_as_disagreeing(floor: Floor) -> None:
    key = _shift_with_a_round(floor, typed_card=True)
    _close(floor)
    audit = produce_report("audit", key).document
    assert [row["status"] for row in audit["manual_entries"]] == ["no_shoe_read"]
    assert audit["findings"]["manual_entries_disagreeing"] == 0
    assert audit["findings"]["manual_entries_without_shoe_read"] == 1


def test_a_report_rerun_after_new_events_of_its_shift_is_a_new_version(floor: Floor) -> None:
    key = _shift_with_a_round(floor)
    round_close(table_id=floor.table.pk, actor=floor.dealer)
    _close(floor)
    first = produce_report("table_shift", key, table=floor.table)
    assert produce_report("table_shift", key, table=floor.table).pk == first.pk
    custody.drop_count(table_id=floor.table.pk, amount=20, counted_by=floor.cashier)
    second = produce_report("table_shift", key, table=floor.table)
    assert second.version == first.version + 1
    assert second.watermark[floor.table.name] > first.watermark[floor.table.name]
    assert produce_report("table_shift", key, table=floor.table).pk == second.pk


def test_a_report_rerun_after_its_rounds_are_rebuilt_from_the_log_is_a_new_version(
    floor: Floor,
) -> None:
    key = _shift_with_a_round(floor)
    _close(floor)
    custody.drop_count(table_id=floor.table.pk, amount=20, counted_by=floor.cashier)
    Round.objects.filter(table=floor.table).update(state={})  # a projection gone wrong
    stale = produce_report("table_shift", key, table=floor.table)
    rebuild_projections(table_id=floor.table.pk)
    fresh = produce_report("table_shift", key, table=floor.table)
    assert fresh.version == stale.version + 1
    assert fresh.watermark == stale.watermark  # the same events, now reported right
    assert fresh.document["rounds"] != stale.document["rounds"]
