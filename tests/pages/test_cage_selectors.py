"""The cashier's counter, as data: the slips waiting, the day's series with voids and gaps."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from reports.models import Slip, SlipSeries
from reports.pages import cage_queue
from tables.services.custody import session_shift, slips
from tests.pages.supervision_floor import LiveFloor, live_floor

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor(
    dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User, cashier_carmen: User
) -> LiveFloor:
    return live_floor(dealer_dora, pit_boss_paula, pit_boss_pedro, cashier_carmen)


def request(floor: LiveFloor, slip_type: str, amounts: dict[str, int]) -> int:
    event = slips.slip_request(
        slip_type=slip_type, table_id=floor.table.pk, amounts=amounts, pit_boss=floor.pit_boss
    )
    return int(event.payload["slip_number"])


def test_a_requested_fill_waits_at_the_cage_with_its_chips(floor: LiveFloor) -> None:
    number = request(floor, "fill", {"100": 500, "25": 250})
    (waiting,) = cage_queue.waiting_slips()
    assert (waiting.slip_type, waiting.number, waiting.table) == ("fill", number, "SyM-1")
    assert waiting.chips == {100: 5, 25: 10}
    assert waiting.total == 750
    assert waiting.requested_by == floor.pit_boss.username
    assert waiting.waiting_at_cage


def test_an_issued_fill_leaves_the_queue(floor: LiveFloor) -> None:
    number = request(floor, "fill", {"100": 500})
    slips.slip_cage_sign(slip_type="fill", slip_number=number, cashier=floor.cashier)
    assert cage_queue.waiting_slips() == []
    found = cage_queue.cage_slip("fill", number)
    assert found is not None
    assert found.stage == Slip.Stage.ISSUED


def test_the_days_series_shows_used_void_outstanding_and_missing_numbers(
    floor: LiveFloor,
) -> None:
    first = request(floor, "fill", {"100": 500})
    slips.slip_cage_sign(slip_type="fill", slip_number=first, cashier=floor.cashier)
    slips.slip_confirm(slip_type="fill", slip_number=first, dealer=floor.dealer)
    voided = request(floor, "fill", {"25": 100})
    slips.slip_void(
        slip_type="fill",
        slip_number=voided,
        reason="Asked twice.",
        requested_by=floor.pit_boss,
        approver=floor.other_pit_boss,
    )
    # A number lost from the series (as a paper slip spoiled and never entered would be).
    SlipSeries.objects.filter(slip_type="fill").update(last_number=voided + 1)
    outstanding = request(floor, "fill", {"25": 100})
    day = session_shift(floor.refresh(), None).gaming_day
    series = {entry.slip_type: entry for entry in cage_queue.day_series(day)}
    fills = series["fill"]
    assert [(entry.number, entry.status) for entry in fills.entries] == [
        (first, cage_queue.USED),
        (voided, cage_queue.VOID),
        (voided + 1, cage_queue.MISSING),
        (outstanding, cage_queue.OUTSTANDING),
    ]
    assert fills.count(cage_queue.MISSING) == 1
    assert series["credit"].entries == ()


def test_the_cage_figures_add_up_what_the_cage_issued_and_received(floor: LiveFloor) -> None:
    fill = request(floor, "fill", {"100": 500})
    slips.slip_cage_sign(slip_type="fill", slip_number=fill, cashier=floor.cashier)
    credit = request(floor, "credit", {"25": 250})
    slips.slip_cage_sign(slip_type="credit", slip_number=credit, cashier=floor.cashier)
    request(floor, "fill", {"5": 50})  # still waiting: not issued yet
    figures = cage_queue.cage_shift_figures(session_shift(floor.refresh(), None))
    assert (figures.fills_issued, figures.credits_received) == (500, 250)
    assert figures.entered_fills_issued is None
    assert figures.cashier_report is None
