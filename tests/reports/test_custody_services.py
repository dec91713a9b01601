"""Custody through the services: every refusal has its code and leaves the log untouched."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from reports.shifts import ShiftKey, floor_clock
from tables.engine.errors import RuleError
from tables.models import Table, TableEvent
from tables.services import custody
from tables.services.custody.log import shift_ledger
from tests.reports.custody_floor import OPENING_CHIPS, Floor, close_books, open_books

pytestmark = pytest.mark.django_db


def refusal(floor: Floor, action: Callable[[], Any]) -> tuple[str, str]:
    """The code and sentence of the refusal; nothing may reach the log."""
    head = floor.refresh().head_seq
    with pytest.raises(RuleError) as caught:
        action()
    assert floor.refresh().head_seq == head
    return caught.value.code, str(caught.value)


def open_table(floor: Floor, chips: dict[str, int] | None = None) -> TableEvent:
    return open_books(
        floor.table.pk,
        dealer=floor.dealer,
        pit_boss=floor.pit_boss,
        chips=OPENING_CHIPS if chips is None else chips,
    )


def close_table(floor: Floor) -> TableEvent:
    return close_books(
        floor.table.pk,
        dealer=floor.dealer,
        pit_boss=floor.pit_boss,
        chips={"5": 90, "25": 40, "100": 12},
    )


def ledger(floor: Floor, event: TableEvent) -> Any:
    return shift_ledger(floor.refresh(), ShiftKey.from_payload(event.payload))


def test_opener_opens_the_table_and_is_written_on_its_log(floor: Floor) -> None:
    event = open_table(floor)
    assert floor.refresh().status == Table.Status.OPEN
    assert event.type == "custody.opener"
    assert event.payload["chips"] == OPENING_CHIPS
    assert ledger(floor, event).opener.pit_boss == floor.pit_boss.username


def test_the_closer_closes_the_table_and_the_next_opener_carries_it_over(floor: Floor) -> None:
    opened = open_table(floor)
    close_table(floor)
    assert floor.refresh().status == Table.Status.CLOSED
    clock = floor_clock()
    _, shift_end = clock.bounds(ShiftKey.from_payload(opened.payload))
    carried = open_books(
        floor.table.pk,
        dealer=floor.dealer,
        pit_boss=floor.other_pit_boss,
        carry_over=True,
        occurred_at=shift_end + timedelta(minutes=1),
    )
    assert carried.payload["carried_over"] is True
    assert carried.payload["chips"] == {"5": 90, "25": 40, "100": 12}
    assert carried.payload["shift"] != opened.payload["shift"]
    assert floor.refresh().status == Table.Status.OPEN


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


def test_an_opener_carried_over_needs_a_closer_to_carry(floor: Floor) -> None:
    code = refusal(
        floor,
        lambda: open_books(
            floor.table.pk,
            dealer=floor.dealer,
            pit_boss=floor.pit_boss,
            carry_over=True,
        ),
    )[0]
    assert code == "no_opening_count"
