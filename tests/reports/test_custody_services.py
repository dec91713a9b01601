"""Custody through the services: every refusal has its code and leaves the log untouched."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from reports.inputs.custody_log import shift_ledger
from reports.models import Slip
from reports.services import custody
from reports.shifts import ShiftKey, floor_clock
from tables.engine.errors import RuleError
from tables.models import Table, TableEvent
from tests.reports.custody_floor import OPENING_CHIPS, Floor

pytestmark = pytest.mark.django_db


def refusal(floor: Floor, action: Callable[[], Any]) -> tuple[str, str]:
    """The code and sentence of the refusal; nothing may reach the log."""
    head = floor.refresh().head_seq
    with pytest.raises(RuleError) as caught:
        action()
    assert floor.refresh().head_seq == head
    return caught.value.code, str(caught.value)


def open_table(floor: Floor, chips: dict[str, int] | None = None) -> TableEvent:
    return custody.custody_open(
        table_id=floor.table.pk,
        dealer=floor.dealer.username,
        pit_boss=floor.pit_boss,
        chips=OPENING_CHIPS if chips is None else chips,
    )


def close_table(floor: Floor) -> TableEvent:
    return custody.custody_close(
        table_id=floor.table.pk,
        dealer=floor.dealer.username,
        pit_boss=floor.pit_boss,
        chips={"5": 90, "25": 40, "100": 12},
    )


def fill(floor: Floor, amounts: dict[str, Any], slip_type: str = "fill") -> TableEvent:
    return custody.slip_record(
        slip_type=slip_type,  # type: ignore[arg-type]
        table_id=floor.table.pk,
        amounts=amounts,
        requested_by=floor.pit_boss.username,
        cashier=floor.cashier,
        confirmed_by=floor.dealer.username,
    )


def ledger(floor: Floor, event: TableEvent) -> Any:
    return shift_ledger(floor.refresh(), ShiftKey.from_payload(event.payload))


def test_opener_opens_the_table_and_is_written_on_its_log(floor: Floor) -> None:
    event = open_table(floor)
    assert floor.refresh().status == Table.Status.OPEN
    assert event.type == "custody.opener"
    assert event.payload["chips"] == OPENING_CHIPS
    assert ledger(floor, event).opener.pit_boss == floor.pit_boss.username


def test_fills_and_credits_take_the_next_numbers_of_one_series_per_type(floor: Floor) -> None:
    open_table(floor)
    first = fill(floor, {"25": 500})
    second = fill(floor, {"100": 300, "5": 50})
    credit = fill(floor, {"100": 200}, slip_type="credit")
    assert [first.payload["slip_number"], second.payload["slip_number"]] == [1, 2]
    assert credit.payload["slip_number"] == 1
    assert second.payload["chips"] == {"5": 10, "100": 3}
    assert Slip.objects.count() == 3
    state = ledger(floor, first)
    assert (state.fills_total, state.credits_total) == (850, 200)


def test_a_refused_slip_gives_its_number_back_to_the_series(floor: Floor) -> None:
    open_table(floor)
    refusal(floor, lambda: fill(floor, {"25": 30}))
    assert fill(floor, {"25": 50}).payload["slip_number"] == 1


def test_the_closer_closes_the_table_and_the_next_opener_carries_it_over(floor: Floor) -> None:
    opened = open_table(floor)
    close_table(floor)
    assert floor.refresh().status == Table.Status.CLOSED
    clock = floor_clock()
    _, shift_end = clock.bounds(ShiftKey.from_payload(opened.payload))
    carried = custody.custody_open(
        table_id=floor.table.pk,
        dealer=floor.dealer.username,
        pit_boss=floor.other_pit_boss,
        occurred_at=shift_end + timedelta(minutes=1),
    )
    assert carried.payload["carried_over"] is True
    assert carried.payload["chips"] == {"5": 90, "25": 40, "100": 12}
    assert carried.payload["shift"] != opened.payload["shift"]
    assert floor.refresh().status == Table.Status.OPEN


@pytest.mark.parametrize(
    ("amounts", "code"),
    [
        ({"25": -50}, "negative_amount"),
        ({"25": 30}, "not_denominated"),
        ({"7": 70}, "not_denominated"),
        ({"chips": 10}, "not_denominated"),
        ({"25": 0}, "empty_slip"),
    ],
)
def test_a_slip_with_a_bad_amount_is_refused(
    floor: Floor, amounts: dict[str, Any], code: str
) -> None:
    open_table(floor)
    assert refusal(floor, lambda: fill(floor, amounts))[0] == code


def test_a_closer_without_an_opener_is_refused(floor: Floor) -> None:
    code, sentence = refusal(floor, lambda: close_table(floor))
    assert code == "closer_without_opener"
    assert "no opener" in sentence


def test_a_second_closer_is_refused(floor: Floor) -> None:
    open_table(floor)
    close_table(floor)
    assert refusal(floor, lambda: close_table(floor))[0] == "second_closer"


def test_a_second_opener_in_the_shift_is_refused(floor: Floor) -> None:
    open_table(floor)
    assert refusal(floor, lambda: open_table(floor))[0] == "second_opener"


def test_a_fill_on_a_closed_table_is_refused(floor: Floor) -> None:
    open_table(floor)
    close_table(floor)
    code, sentence = refusal(floor, lambda: fill(floor, {"25": 100}))
    assert code == "table_closed"
    assert "closed" in sentence


def test_a_fill_before_the_opener_is_refused(floor: Floor) -> None:
    assert refusal(floor, lambda: fill(floor, {"25": 100}))[0] == "table_not_open"


def test_a_count_entered_twice_is_refused(floor: Floor) -> None:
    open_table(floor)
    close_table(floor)
    custody.drop_count(table_id=floor.table.pk, amount=1200, counted_by=floor.cashier)
    code, sentence = refusal(
        floor,
        lambda: custody.drop_count(table_id=floor.table.pk, amount=1300, counted_by=floor.cashier),
    )
    assert code == "drop_already_counted"
    assert "final" in sentence


def test_a_negative_count_or_buy_in_is_refused(floor: Floor) -> None:
    open_table(floor)
    assert (
        refusal(
            floor,
            lambda: custody.buy_in_record(table_id=floor.table.pk, amount=-5, actor=floor.dealer),
        )[0]
        == "negative_amount"
    )
    assert (
        refusal(
            floor,
            lambda: custody.drop_count(
                table_id=floor.table.pk, amount=-1, counted_by=floor.cashier
            ),
        )[0]
        == "negative_amount"
    )


def test_a_buy_in_of_nothing_is_refused(floor: Floor) -> None:
    open_table(floor)
    action = lambda: custody.buy_in_record(  # noqa: E731
        table_id=floor.table.pk, amount=0, actor=floor.dealer
    )
    assert refusal(floor, action)[0] == "invalid_amount"


def test_an_opener_without_a_count_carries_the_last_closer_over(floor: Floor) -> None:
    code = refusal(
        floor,
        lambda: custody.custody_open(
            table_id=floor.table.pk, dealer=floor.dealer.username, pit_boss=floor.pit_boss
        ),
    )[0]
    assert code == "no_opening_count"


def test_a_void_keeps_the_number_and_needs_a_second_pit_boss(floor: Floor) -> None:
    open_table(floor)
    slip = fill(floor, {"25": 500})
    number = slip.payload["slip_number"]

    def void_by(requester: str) -> TableEvent:
        return custody.slip_void(
            slip_type="fill",
            slip_number=number,
            reason="wrong table",
            requested_by=requester,
            approver=floor.pit_boss,
        )

    assert refusal(floor, lambda: void_by(floor.pit_boss.username))[0] == "approver_is_requester"
    void_by(floor.other_pit_boss.username)
    state = ledger(floor, slip)
    assert state.fills_total == 0
    assert state.void_of("fill", number).approved_by == floor.pit_boss.username
    assert Slip.objects.get(number=number).voided
    assert refusal(floor, lambda: void_by(floor.other_pit_boss.username))[0] == (
        "slip_already_voided"
    )


def test_a_void_of_a_slip_never_issued_is_refused(floor: Floor) -> None:
    action = lambda: custody.slip_void(  # noqa: E731
        slip_type="credit",
        slip_number=99,
        reason="typo",
        requested_by=floor.other_pit_boss.username,
        approver=floor.pit_boss,
    )
    assert refusal(floor, action)[0] == "unknown_slip"


def test_a_slip_signed_by_someone_without_the_role_is_refused(floor: Floor) -> None:
    open_table(floor)
    action = lambda: custody.slip_record(  # noqa: E731
        slip_type="fill",
        table_id=floor.table.pk,
        amounts={"25": 100},
        requested_by=floor.dealer.username,
        cashier=floor.cashier,
        confirmed_by=floor.dealer.username,
    )
    assert refusal(floor, action)[0] == "signer_without_role"
