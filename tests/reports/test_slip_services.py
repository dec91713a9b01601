"""Fill and credit slips through the services: request, cage, confirm, void, in that order,
each by its role; every refusal has its code and leaves the log and the series untouched."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from reports.models import Slip, SlipSeries
from tables.models import TableEvent
from tables.services.custody import slips
from tables.services.floor import dealer_assign
from tests.reports.custody_floor import Floor, slip_through
from tests.reports.test_custody_services import close_table, ledger, open_table, refusal

pytestmark = pytest.mark.django_db


def request(floor: Floor, amounts: dict[str, Any], slip_type: str = "fill") -> int:
    event = slips.slip_request(
        slip_type=slip_type, table_id=floor.table.pk, amounts=amounts, pit_boss=floor.pit_boss
    )
    number: int = event.payload["slip_number"]
    return number


def cage(floor: Floor, number: int, slip_type: str = "fill", **extra: Any) -> TableEvent:
    return slips.slip_cage_sign(
        slip_type=slip_type, slip_number=number, cashier=floor.cashier, **extra
    )


def confirm(
    floor: Floor, number: int, slip_type: str = "fill", by: User | None = None, **extra: Any
) -> TableEvent:
    return slips.slip_confirm(
        slip_type=slip_type, slip_number=number, dealer=by or floor.dealer, **extra
    )


def void(floor: Floor, number: int, slip_type: str = "fill") -> TableEvent:
    return slips.slip_void(
        slip_type=slip_type,
        slip_number=number,
        reason="written for the wrong table",
        requested_by=floor.other_pit_boss,
        approver=floor.pit_boss,
    )


def stage(number: int, slip_type: str = "fill") -> tuple[str, bool]:
    slip = Slip.objects.get(slip_type=slip_type, number=number)
    return slip.stage, slip.voided


def test_a_fill_counts_only_once_the_dealer_confirms_it_at_the_table(floor: Floor) -> None:
    opened = open_table(floor)
    number = request(floor, {"25": 500, "5": 50})
    assert (ledger(floor, opened).fills_total, stage(number)) == (0, ("requested", False))
    issued = cage(floor, number)
    assert issued.type == "custody.fill_issued"
    assert issued.payload["cashier"] == floor.cashier.username
    assert (ledger(floor, opened).fills_total, stage(number)) == (0, ("issued", False))
    confirmed = confirm(floor, number)
    assert confirmed.type == "custody.fill_confirmed"
    assert confirmed.payload["chips"] == {"5": 10, "25": 20}
    state = ledger(floor, opened)
    assert state.fills_total == 550
    assert (state.fills[0].issued_by, state.fills[0].confirmed_by) == ("carmen", "dora")
    assert stage(number) == ("confirmed", False)


def test_a_credit_is_received_at_the_cage_then_confirmed(floor: Floor) -> None:
    opened = open_table(floor)
    number = request(floor, {"100": 200}, "credit")
    assert cage(floor, number, "credit").type == "custody.credit_received"
    assert stage(number, "credit") == ("received", False)
    confirm(floor, number, "credit")
    assert ledger(floor, opened).credits_total == 200


def test_numbers_are_taken_at_request_time_one_series_per_type(floor: Floor) -> None:
    open_table(floor)
    first, second = request(floor, {"25": 500}), request(floor, {"100": 300})
    credit = request(floor, {"100": 200}, "credit")
    assert (first, second, credit) == (1, 2, 1)
    # Confirming the second before the first leaves the series continuous.
    cage(floor, second)
    confirm(floor, second)
    assert list(Slip.objects.filter(slip_type="fill").values_list("number", "stage")) == [
        (1, "requested"),
        (2, "confirmed"),
    ]


def test_a_refused_request_gives_its_number_back_to_the_series(floor: Floor) -> None:
    open_table(floor)
    assert refusal(floor, lambda: request(floor, {"25": 30}))[0] == "not_denominated"
    assert SlipSeries.objects.get(slip_type="fill").last_number == 0
    assert request(floor, {"25": 50}) == 1


@pytest.mark.parametrize(
    ("amounts", "code"),
    [
        ({"25": -50}, "negative_amount"),
        ({"25": 30}, "not_denominated"),
        ({"7": 70}, "not_denominated"),
        ({"chips": 10}, "not_denominated"),
        ({"25": 2.5}, "not_denominated"),
        ({"25": 0}, "empty_slip"),
    ],
)
def test_a_request_with_a_bad_amount_is_refused(
    floor: Floor, amounts: dict[str, Any], code: str
) -> None:
    open_table(floor)
    assert refusal(floor, lambda: request(floor, amounts))[0] == code


def test_confirming_before_the_cage_signed_is_out_of_order(floor: Floor) -> None:
    open_table(floor)
    number = request(floor, {"25": 100})
    code, sentence = refusal(floor, lambda: confirm(floor, number))
    assert code == "slip_out_of_order"
    assert "issued at the cage first" in sentence


def test_each_step_is_taken_once(floor: Floor) -> None:
    open_table(floor)
    number = request(floor, {"25": 100})
    cage(floor, number)
    assert refusal(floor, lambda: cage(floor, number))[0] == "slip_out_of_order"
    confirm(floor, number)
    assert refusal(floor, lambda: confirm(floor, number))[0] == "slip_out_of_order"
    assert refusal(floor, lambda: cage(floor, number))[0] == "slip_out_of_order"


def test_the_cage_issues_exactly_what_was_requested(floor: Floor) -> None:
    open_table(floor)
    number = request(floor, {"25": 100})
    code, sentence = refusal(floor, lambda: cage(floor, number, amounts={"25": 125}))
    assert code == "slip_amount_differs"
    assert "Void it and request a new slip" in sentence
    assert cage(floor, number, amounts={"25": 100}).payload["chips"] == {"25": 4}
    assert refusal(floor, lambda: confirm(floor, number, amounts={"5": 100}))[0] == (
        "slip_amount_differs"
    )


@pytest.mark.parametrize("step", ["request", "cage", "confirm"])
def test_each_step_needs_its_role(floor: Floor, step: str) -> None:
    open_table(floor)
    number = request(floor, {"25": 100})
    if step == "confirm":
        cage(floor, number)
    wrong: dict[str, Any] = {
        "request": lambda: slips.slip_request(
            slip_type="fill", table_id=floor.table.pk, amounts={"25": 100}, pit_boss=floor.cashier
        ),
        "cage": lambda: slips.slip_cage_sign(
            slip_type="fill", slip_number=number, cashier=floor.pit_boss
        ),
        # A cashier cannot confirm at the table.
        "confirm": lambda: slips.slip_confirm(
            slip_type="fill", slip_number=number, dealer=floor.cashier
        ),
    }
    assert refusal(floor, wrong[step])[0] == "permission_denied"


def test_only_the_dealer_assigned_to_the_table_confirms(floor: Floor, dealer_dan: User) -> None:
    open_table(floor)
    number = request(floor, {"25": 100})
    cage(floor, number)
    code, sentence = refusal(floor, lambda: confirm(floor, number, by=dealer_dan))
    assert code == "not_your_table"
    assert floor.table.name in sentence
    dealer_assign(table_id=floor.table.pk, dealer=dealer_dan, by=floor.pit_boss)
    assert confirm(floor, number, by=dealer_dan).payload["confirmed_by"] == "dan"


def test_a_step_on_a_slip_that_does_not_exist_is_refused(floor: Floor) -> None:
    open_table(floor)
    assert refusal(floor, lambda: cage(floor, 41))[0] == "unknown_slip"
    assert refusal(floor, lambda: confirm(floor, 41, "credit"))[0] == "unknown_slip"
    assert refusal(floor, lambda: void(floor, 41, "credit"))[0] == "unknown_slip"
    assert refusal(floor, lambda: confirm(floor, 1, "tip"))[0] == "unknown_slip_type"


@pytest.mark.parametrize("reached", ["requested", "issued"])
def test_a_void_before_it_counts_keeps_the_number_and_ends_the_slip(
    floor: Floor, reached: str
) -> None:
    opened = open_table(floor)
    number = request(floor, {"25": 100})
    if reached == "issued":
        cage(floor, number)
    void(floor, number)
    assert stage(number) == (reached, True)
    assert refusal(floor, lambda: cage(floor, number))[0] == "slip_already_voided"
    assert refusal(floor, lambda: confirm(floor, number))[0] == "slip_already_voided"
    assert refusal(floor, lambda: void(floor, number))[0] == "slip_already_voided"
    state = ledger(floor, opened)
    assert state.fills_total == 0
    assert state.void_of("fill", number) is not None
    assert request(floor, {"25": 100}) == number + 1


def test_a_confirmed_slip_is_voided_only_with_four_eyes(floor: Floor) -> None:
    opened = open_table(floor)
    number = slip_through(floor, "fill", {"25": 500}).payload["slip_number"]

    def void_asked_by(requester: User) -> TableEvent:
        return slips.slip_void(
            slip_type="fill",
            slip_number=number,
            reason="wrong table",
            requested_by=requester,
            approver=floor.pit_boss,
        )

    assert refusal(floor, lambda: void_asked_by(floor.pit_boss))[0] == "own_request"
    void_asked_by(floor.other_pit_boss)
    state = ledger(floor, opened)
    assert state.fills_total == 0
    assert state.void_of("fill", number).approved_by == floor.pit_boss.username
    assert stage(number) == ("confirmed", True)


def test_a_void_needs_a_reason(floor: Floor) -> None:
    open_table(floor)
    number = request(floor, {"25": 100})
    action = lambda: slips.slip_void(  # noqa: E731
        slip_type="fill",
        slip_number=number,
        reason="  ",
        requested_by=floor.other_pit_boss,
        approver=floor.pit_boss,
    )
    assert refusal(floor, action)[0] == "missing_reason"


def test_a_request_before_the_opener_or_after_the_closer_is_refused(floor: Floor) -> None:
    assert refusal(floor, lambda: request(floor, {"25": 100}))[0] == "table_not_open"
    open_table(floor)
    number = request(floor, {"25": 100})
    close_table(floor)
    code, sentence = refusal(floor, lambda: request(floor, {"25": 100}))
    assert (code, "closed" in sentence) == ("table_closed", True)
    # The slip left open at the close can no longer move chips; it is voided instead.
    assert refusal(floor, lambda: cage(floor, number))[0] == "table_closed"
    void(floor, number)
    assert stage(number) == ("requested", True)
