import pytest

from tables.engine.custody import (
    BuyIn,
    Closer,
    Credit,
    CustodyFact,
    CustodyState,
    DropCounted,
    Fill,
    Opener,
    SlipCageSigned,
    SlipConfirmed,
    SlipRequested,
    SlipType,
    SlipVoided,
    carry_over,
    chips_from_amounts,
    chips_total,
    fold,
    fold_all,
    new_state,
    next_opener,
)
from tables.engine.errors import InvalidInputError, NotAllowedNowError, RuleError

CHIPS = (1, 5, 25, 100)
OPENER = Opener(chips={100: 20, 25: 40, 5: 60, 1: 50}, dealer="dana", pit_boss="pablo")
CLOSER = Closer(chips={100: 12, 25: 50, 5: 40, 1: 35}, dealer="dana", pit_boss="pablo")


def fill(number: int, chips: dict[int, int]) -> Fill:
    return Fill(number, chips, requested_by="pablo", issued_by="carla", confirmed_by="dana")


def credit(number: int, chips: dict[int, int]) -> Credit:
    return Credit(number, chips, requested_by="pablo", received_by="carla", confirmed_by="dana")


def void(slip_type: str, number: int) -> SlipVoided:
    return SlipVoided(slip_type, number, "written for the wrong table", "pablo", "mara")  # type: ignore[arg-type]


def ledger_of(*facts: CustodyFact) -> CustodyState:
    series: dict[SlipType, range] = {"fill": range(1001, 1011), "credit": range(501, 511)}
    return fold_all(new_state("T1", CHIPS, slip_series=series), facts)


def refusal(facts: tuple[CustodyFact, ...], last: CustodyFact) -> RuleError:
    with pytest.raises(RuleError) as refused:
        fold(ledger_of(*facts), last)
    return refused.value


def test_a_full_shift_totals_every_custody_figure() -> None:
    ledger = ledger_of(
        OPENER,
        fill(1001, {100: 10, 25: 20}),
        fill(1002, {25: 8}),
        void("fill", 1002),
        credit(501, {100: 5}),
        BuyIn(300),
        BuyIn(1200),
        BuyIn(750),
        CLOSER,
        DropCounted(2400, counted_by="team-b"),
    )
    assert chips_total(ledger.opener.chips) == 3350  # type: ignore[union-attr]
    assert chips_total(ledger.closer.chips) == 2685  # type: ignore[union-attr]
    assert ledger.fills_total == 1500  # slip 1002 (200) is void
    assert ledger.credits_total == 500
    assert ledger.estimated_drop == 2250
    assert ledger.drop == DropCounted(2400, "team-b")
    assert ledger.is_closed
    assert ledger.void_of("fill", 1002) is not None
    assert ledger.void_of("fill", 1001) is None


def test_the_closer_carries_over_as_the_next_opener() -> None:
    opener = carry_over(CLOSER)
    assert dict(opener.chips) == {100: 12, 25: 50, 5: 40, 1: 35}
    assert (opener.dealer, opener.pit_boss, opener.carried_over) == ("dana", "pablo", True)
    assert fold_all(new_state("T1", CHIPS), [opener]).opener == opener


def test_facts_cannot_be_edited_after_they_are_recorded() -> None:
    chips = {100: 1}
    slip = fill(1001, chips)
    chips[100] = 99
    assert dict(slip.chips) == {100: 1}
    with pytest.raises(TypeError):
        slip.chips[100] = 5  # type: ignore[index]


def test_a_request_written_in_amounts_becomes_chip_counts() -> None:
    assert chips_from_amounts({100: 1000, 25: 500}, CHIPS) == {100: 10, 25: 20}


@pytest.mark.parametrize(
    ("facts", "last", "code", "kind"),
    [
        ((OPENER,), fill(1001, {100: -2}), "negative_amount", InvalidInputError),
        ((OPENER,), fill(1001, {50: 2}), "not_denominated", InvalidInputError),
        ((OPENER,), fill(1001, {25: 2.5}), "not_denominated", InvalidInputError),  # type: ignore[dict-item]
        ((OPENER,), credit(501, {100: 0}), "empty_slip", InvalidInputError),
        ((), CLOSER, "closer_without_opener", NotAllowedNowError),
        ((OPENER, CLOSER), CLOSER, "second_closer", NotAllowedNowError),
        ((OPENER,), OPENER, "second_opener", NotAllowedNowError),
        ((OPENER, CLOSER), fill(1001, {100: 1}), "table_closed", NotAllowedNowError),
        ((OPENER, CLOSER), BuyIn(100), "table_closed", NotAllowedNowError),
        ((), fill(1001, {100: 1}), "table_not_open", NotAllowedNowError),
        ((), DropCounted(10, "team-b"), "table_not_open", NotAllowedNowError),
        (
            (OPENER, DropCounted(10, "team-b")),
            DropCounted(10, "team-b"),
            "drop_already_counted",
            NotAllowedNowError,
        ),
        ((OPENER,), DropCounted(-10, "team-b"), "negative_amount", InvalidInputError),
        ((OPENER,), BuyIn(-5), "negative_amount", InvalidInputError),
        ((OPENER,), BuyIn(0), "invalid_amount", InvalidInputError),
        ((OPENER,), fill(2001, {100: 1}), "slip_number_out_of_series", InvalidInputError),
        ((OPENER,), fill(0, {100: 1}), "slip_number_out_of_series", InvalidInputError),
        (
            (OPENER, fill(1001, {100: 1})),
            fill(1001, {100: 2}),
            "slip_number_reused",
            NotAllowedNowError,
        ),
        ((OPENER,), void("fill", 1001), "unknown_slip", InvalidInputError),
        ((OPENER, credit(501, {5: 1})), void("fill", 501), "unknown_slip", InvalidInputError),
        (
            (OPENER, fill(1001, {1: 1}), void("fill", 1001)),
            void("fill", 1001),
            "slip_already_voided",
            NotAllowedNowError,
        ),
        (
            (OPENER,),
            Fill(1001, {1: 1}, "pablo", "carla", " "),
            "missing_signature",
            InvalidInputError,
        ),
        (
            (OPENER,),
            Fill(1001, {1: 1}, "pablo", "pablo", "dana"),
            "signers_not_distinct",
            InvalidInputError,
        ),
        (
            (),
            Opener({1: 1}, dealer="dana", pit_boss="dana"),
            "signers_not_distinct",
            InvalidInputError,
        ),
    ],
)
def test_bad_custody_input_is_refused_with_its_code(
    facts: tuple[CustodyFact, ...], last: CustodyFact, code: str, kind: type[RuleError]
) -> None:
    refused = refusal(facts, last)
    assert refused.code == code
    assert isinstance(refused, kind)
    assert refused.message.endswith(".")


def test_a_void_approved_by_its_requester_is_refused() -> None:
    self_approved = SlipVoided("fill", 1001, "typo", requested_by="pablo", approved_by="pablo")
    refused = refusal((OPENER, fill(1001, {1: 1})), self_approved)
    assert refused.code == "approver_is_requester"


def test_a_refused_fact_leaves_the_ledger_as_it_was() -> None:
    before = ledger_of(OPENER, fill(1001, {100: 1}))
    with pytest.raises(RuleError):
        fold(before, fill(1002, {100: -1}))
    assert before == ledger_of(OPENER, fill(1001, {100: 1}))


def test_slips_are_checked_against_the_series_only_when_one_is_given() -> None:
    unchecked = fold_all(new_state("T1", CHIPS), [OPENER, fill(987654, {1: 3})])
    assert unchecked.fills_total == 3


@pytest.mark.parametrize(
    ("amounts", "code"),
    [({25: 30}, "not_denominated"), ({7: 14}, "not_denominated"), ({5: -10}, "negative_amount")],
)
def test_an_amount_that_is_not_whole_chips_is_refused(amounts: dict[int, int], code: str) -> None:
    with pytest.raises(InvalidInputError) as refused:
        chips_from_amounts(amounts, CHIPS)
    assert refused.value.code == code


def test_a_new_count_opens_the_next_shift_instead_of_the_carried_closer() -> None:
    fresh = Opener({100: 12, 25: 50}, dealer="dora", pit_boss="pia")
    assert next_opener(CLOSER, fresh) == fresh
    assert next_opener(CLOSER) == carry_over(CLOSER)


def test_a_table_with_no_previous_closer_needs_a_count_to_open() -> None:
    with pytest.raises(NotAllowedNowError) as refused:
        next_opener(None)
    assert refused.value.code == "no_opening_count"


def requested(number: int, chips: dict[int, int], kind: SlipType = "fill") -> SlipRequested:
    return SlipRequested(kind, number, chips, "pablo")


def cage_signed(number: int, chips: dict[int, int], kind: SlipType = "fill") -> SlipCageSigned:
    return SlipCageSigned(kind, number, chips, "carla")


def confirmed(number: int, chips: dict[int, int], kind: SlipType = "fill") -> SlipConfirmed:
    return SlipConfirmed(kind, number, chips, "dana")


def test_a_slip_moves_the_chips_only_once_confirmed_at_the_table() -> None:
    steps = (requested(1001, {100: 5}), cage_signed(1001, {100: 5}))
    pending = ledger_of(OPENER, *steps)
    assert pending.fills_total == 0
    assert [(slip.slip_number, slip.stage) for slip in pending.pending] == [(1001, "issued")]
    done = fold(pending, confirmed(1001, {100: 5}))
    assert done.fills_total == 500
    assert done.pending == ()
    assert done.fills == (Fill(1001, {100: 5}, "pablo", "carla", "dana"),)


def test_a_credit_is_received_then_confirmed() -> None:
    credit_steps = (
        requested(501, {25: 8}, "credit"),
        cage_signed(501, {25: 8}, "credit"),
    )
    pending = ledger_of(OPENER, *credit_steps)
    assert pending.pending[0].stage == "received"
    assert fold(pending, confirmed(501, {25: 8}, "credit")).credits_total == 200


@pytest.mark.parametrize(
    ("facts", "last", "code"),
    [
        ((requested(1001, {100: 5}),), confirmed(1001, {100: 5}), "slip_out_of_order"),
        (
            (requested(1001, {100: 5}), cage_signed(1001, {100: 5})),
            cage_signed(1001, {100: 5}),
            "slip_out_of_order",
        ),
        ((requested(1001, {100: 5}),), cage_signed(1001, {100: 4}), "slip_amount_differs"),
        (
            (requested(1001, {100: 5}), cage_signed(1001, {100: 5})),
            confirmed(1001, {25: 20}),
            "slip_amount_differs",
        ),
        ((), cage_signed(1001, {100: 5}), "unknown_slip"),
        ((requested(1001, {100: 5}),), cage_signed(1001, {100: 5}, "credit"), "unknown_slip"),
        (
            (requested(1001, {100: 5}), void("fill", 1001)),
            cage_signed(1001, {100: 5}),
            "slip_already_voided",
        ),
        ((requested(1001, {100: 5}),), requested(1001, {100: 1}), "slip_number_reused"),
        ((), requested(1011, {100: 1}), "slip_number_out_of_series"),
        ((), requested(1002, {}), "empty_slip"),
        (
            (requested(1001, {100: 5}),),
            SlipCageSigned("fill", 1001, {100: 5}, "pablo"),
            "signers_not_distinct",
        ),
    ],
)
def test_slip_steps_out_of_order_or_changed_are_refused(
    facts: tuple[CustodyFact, ...], last: CustodyFact, code: str
) -> None:
    assert refusal((OPENER, *facts), last).code == code


def test_no_step_completes_a_slip_after_the_closer_but_a_void_may() -> None:
    facts = (OPENER, requested(1001, {100: 5}), CLOSER)
    assert refusal(facts, cage_signed(1001, {100: 5})).code == "table_closed"
    closed = fold(ledger_of(*facts), void("fill", 1001))
    assert closed.void_of("fill", 1001) is not None
    assert closed.slips.outstanding("fill") == ()


def test_a_void_at_any_step_keeps_the_number() -> None:
    state = ledger_of(
        OPENER,
        requested(1001, {100: 5}),
        void("fill", 1001),
        requested(1002, {100: 5}),
        cage_signed(1002, {100: 5}),
        confirmed(1002, {100: 5}),
        void("fill", 1002),
    )
    assert (state.fills_total, len(state.voids)) == (0, 2)
    assert [slip.slip_number for slip in state.pending] == [1001]
    assert [slip.slip_number for slip in state.fills] == [1002]
