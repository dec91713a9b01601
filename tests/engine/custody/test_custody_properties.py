"""Properties of the pure custody fold over random shifts: the fold is pure and deterministic, a
refused fact changes nothing, the codec reads back every fact it writes, replaying the admitted
facts gives the same state, and the rules that close the books always hold."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engine.custody import (
    BuyIn,
    ChipsCounted,
    Closer,
    CustodyFact,
    CustodyState,
    DropCounted,
    Opener,
    SlipCageSigned,
    SlipConfirmed,
    SlipRequested,
    SlipVoided,
    chips_total,
    codec,
    fold,
    fold_all,
    new_state,
    slip_status,
    slip_statuses,
)
from tables.engine.errors import InvalidInputError, RuleError

CHIPS = (1, 5, 25, 100)
PEOPLE = ("dana", "pablo", "mara", "carla", "")
chips = st.dictionaries(st.sampled_from(CHIPS), st.integers(min_value=0, max_value=40), max_size=4)
person = st.sampled_from(PEOPLE)
slip_type = st.sampled_from(("fill", "credit"))
number = st.integers(min_value=1, max_value=6)


def any_fact() -> st.SearchStrategy[CustodyFact]:
    """Facts of every kind, many of them out of order or ill-signed: the fold must judge."""
    return st.one_of(
        st.builds(ChipsCounted, chips, person, st.booleans(), st.booleans()),
        st.builds(Opener, chips, person, person, st.booleans()),
        st.builds(Closer, chips, person, person),
        st.builds(SlipRequested, slip_type, number, chips, person),
        st.builds(SlipCageSigned, slip_type, number, chips, person),
        st.builds(SlipConfirmed, slip_type, number, chips, person),
        st.builds(SlipVoided, slip_type, number, st.just("wrong table"), person, person),
        st.builds(BuyIn, st.integers(min_value=-5, max_value=500)),
        st.builds(DropCounted, st.integers(min_value=0, max_value=5000), person),
    )


def likely_fact(state: CustodyState) -> st.SearchStrategy[CustodyFact]:
    """The next step a shift would take from `state` (so long shifts get far), or any fact."""
    steps: list[st.SearchStrategy[CustodyFact]] = []
    if state.opener is None:
        steps.append(st.builds(Opener, chips, st.just("dana"), st.just("pablo")))
    elif state.closer is None:
        used = len(state.pending) + len(state.fills) + len(state.credits)
        amounts = st.dictionaries(st.sampled_from(CHIPS), st.integers(1, 20), min_size=1)
        steps.append(
            st.builds(SlipRequested, slip_type, st.just(used + 1), amounts, st.just("pablo"))
        )
        steps.append(st.builds(BuyIn, st.integers(min_value=1, max_value=500)))
    if state.count is not None:
        count = state.count
        signed = Closer if count.closing else Opener
        steps.append(st.just(signed(count.chips, "dana", count.pit_boss)))
    for slip in state.pending:
        step = SlipCageSigned if slip.cashier is None else SlipConfirmed
        signer = "carla" if slip.cashier is None else "dana"
        steps.append(st.just(step(slip.slip_type, slip.slip_number, slip.chips, signer)))
    return st.one_of(any_fact(), *steps, *steps)  # the likely steps twice as often


def as_stored(fact: CustodyFact) -> CustodyFact:
    """The fact through the codec and the log's JSON, as every reader meets it."""
    event_type, payload = codec.encode(fact)
    return codec.decode(event_type, json.loads(json.dumps(payload)))


def refusal_code(state: CustodyState, fact: CustodyFact) -> str | None:
    try:
        fold(state, fact)
    except RuleError as refused:
        return refused.code
    return None


def check_books(state: CustodyState) -> None:
    live_fills = [f for f in state.fills if state.void_of("fill", f.slip_number) is None]
    assert state.fills_total == sum(chips_total(f.chips) for f in live_fills)
    assert state.estimated_drop == sum(buy_in.amount for buy_in in state.buy_ins)
    assert all(buy_in.amount > 0 for buy_in in state.buy_ins)
    for (kind, slip_number), status in slip_statuses(state).items():
        assert slip_status(state, kind, slip_number) == status
    if state.closer is not None or (state.count is not None and state.count.closing):
        for closed in (BuyIn(10), SlipRequested("fill", 99, {5: 1}, "pablo")):
            with pytest.raises(RuleError) as refused:
                fold(state, closed)
            assert refused.value.code == "table_closed"


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_a_random_shift_folds_purely_and_replays_to_the_same_books(data: Any) -> None:
    state = new_state("T1", CHIPS)
    admitted: list[CustodyFact] = []
    for _ in range(data.draw(st.integers(min_value=5, max_value=40))):
        fact = data.draw(likely_fact(state))
        assert as_stored(fact) == fact
        before = state
        code = refusal_code(state, fact)
        if code is not None:
            assert code != "rule_violation"  # every refusal names its rule
            assert state == before  # a refusal changes nothing
            assert refusal_code(state, fact) == code  # and says the same each time
            continue
        after = fold(state, fact)
        assert fold(before, fact) == after  # deterministic
        assert before == state  # the state folded into is never edited
        state = after
        admitted.append(fact)
        check_books(state)
    assert fold_all(new_state("T1", CHIPS), [as_stored(fact) for fact in admitted]) == state


@settings(max_examples=60, deadline=None)
@given(kind=slip_type, amount=st.integers(min_value=1, max_value=30))
def test_a_slip_moves_only_in_its_order_request_cage_table(kind: str, amount: int) -> None:
    opened = fold_all(new_state("T1", CHIPS), [Opener({5: 10}, "dana", "pablo")])
    requested = fold(opened, SlipRequested(kind, 1, {25: amount}, "pablo"))  # type: ignore[arg-type]
    early = SlipConfirmed(kind, 1, {25: amount}, "dana")  # type: ignore[arg-type]
    with pytest.raises(RuleError) as refused:
        fold(requested, early)
    assert refused.value.code == "slip_out_of_order"
    signed = fold(requested, SlipCageSigned(kind, 1, {25: amount}, "carla"))  # type: ignore[arg-type]
    assert slip_status(signed, kind, 1).stage == ("issued" if kind == "fill" else "received")  # type: ignore[arg-type, union-attr]
    confirmed = fold(signed, early)
    assert slip_status(confirmed, kind, 1).stage == "confirmed"  # type: ignore[arg-type, union-attr]
    with pytest.raises(RuleError) as twice:
        fold(confirmed, early)
    assert twice.value.code == "slip_out_of_order"


@pytest.mark.parametrize(
    ("event_type", "payload"),
    [
        ("custody.buy_in", {}),
        ("custody.opener", {"chips": [], "dealer": "dana", "pit_boss": "pablo"}),
        ("custody.fill_confirmed", {"slip_type": "fill", "chips": {}}),
        ("custody.unheard_of", {"amount": 5}),
        ("custody.opener", {"chips": {"five": 1}, "dealer": "dana", "pit_boss": "pablo"}),
    ],
)
def test_a_payload_that_holds_no_fact_is_refused_by_the_codec(
    event_type: str, payload: dict[str, Any]
) -> None:
    with pytest.raises(InvalidInputError):
        codec.decode(event_type, payload)
