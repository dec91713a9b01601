"""Properties of random hands under random table settings (hypothesis drives every choice)."""

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.engine.errors import RuleError
from tables.engine.game import Event, replay
from tables.engine.poker.cards import ALL_CODES
from tables.engine.stud import STUD
from tables.engine.stud.betting import options
from tables.engine.stud.commands import (
    ACTION_KINDS,
    Action,
    AwardPots,
    Burn,
    Muck,
    RecordCard,
    Show,
)
from tables.engine.stud.decide import decide
from tables.engine.stud.invariants import Tally, check_hand
from tables.engine.stud.showdown import next_to_show
from tables.engine.stud.simulation import restock
from tables.engine.stud.state import AWARDING, BETTING, DEALING, SHOWDOWN, StudState
from tables.engine.stud.table import StudTable
from tables.engine.stud.view import live_view

table_settings = st.fixed_dictionaries(
    {"small_bet": st.sampled_from([10, 20, 50])},
    optional={
        "rake_percent": st.sampled_from(["0", "2.5", "5", "10"]),
        "rake_cap": st.sampled_from([0, 5, 30, 200]),
        "raise_cap": st.integers(0, 4),
        "heads_up_uncapped": st.booleans(),
        "open_pair_big_bet": st.booleans(),
        "bring_in_tie": st.sampled_from(["position", "suit"]),
        "high_hand_tie": st.sampled_from(["position", "suit"]),
        "odd_chip": st.sampled_from(["high_card_by_suit", "left_of_dealer"]),
        "burns": st.booleans(),
        "short_stub": st.sampled_from(["community", "reshuffle_burns"]),
        "community_first_actor": st.sampled_from(["with_community", "sixth_street"]),
        "short_ante": st.sampled_from(["all_in", "sit_out"]),
    },
)


def _play(data: Any, config: dict[str, Any], players: int) -> tuple[StudTable, dict[int, int]]:
    table = StudTable(config)
    small = table.state.settings.small_bet
    stacks = {
        # Two players always have the ante, so a hand can start under short_ante: sit_out.
        seat: data.draw(st.integers(1 if seat > 2 else small, 30 * small), label=f"stack {seat}")
        for seat in range(1, players + 1)
    }
    table.start(stacks)
    deck = list(data.draw(st.permutations(ALL_CODES), label="deck"))
    burned: list[str] = []
    for _ in range(600):
        state = table.state
        if state.phase == DEALING:
            restock(state, deck, burned, data.draw(st.randoms(use_true_random=False)))
            if state.burn_open and data.draw(st.booleans(), label="burn"):
                burned.append(deck.pop())
                table.apply(Burn(burned[-1]))
                continue
            table.apply(RecordCard(deck.pop()))
        elif state.phase == BETTING and state.betting and state.betting.to_act is not None:
            seat = state.betting.to_act
            option = data.draw(st.sampled_from(options(state, seat)), label="action")
            table.apply(Action(option.kind, seat, option.to))
        elif state.phase == SHOWDOWN:
            table.apply(_show_or_muck(data, state))
        elif state.phase == AWARDING:
            table.apply(AwardPots())
        else:
            break
    return table, stacks


def _show_or_muck(data: Any, state: StudState) -> Show | Muck:
    seat = next_to_show(state)
    assert seat is not None
    may_muck = not state.must_show and sum(s.live for s in state.in_hand()) > 1
    if may_muck and data.draw(st.booleans(), label="muck"):
        return Muck(seat)
    return Show(seat)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), table_settings, st.integers(2, 8))
def test_chips_are_conserved_and_every_action_was_legal_in_turn(
    data: Any, config: dict[str, Any], players: int
) -> None:
    table, stacks = _play(data, config, players)
    tally = Tally()
    check_hand(table, stacks, tally)

    assert tally.violations == []
    assert table.state.phase == "complete"
    end = sum(s.stack for s in table.state.seats) + sum(stacks[n] for n in table.state.sitting_out)
    assert sum(stacks.values()) == end + (table.state.result or {})["rake_total"]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), table_settings, st.integers(2, 8))
def test_replaying_the_events_reproduces_the_state_and_the_view(
    data: Any, config: dict[str, Any], players: int
) -> None:
    table, _ = _play(data, config, players)

    # The log stores JSON: replay what a JSON round trip gives back, not the engine's own objects.
    stored = [Event(e.type, json.loads(json.dumps(e.data))) for e in table.events]
    replayed = replay(STUD, STUD.new_state(config), stored)

    assert replayed == table.state
    assert live_view(replayed) == live_view(table.state)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(2, 6))
def test_decide_accepts_exactly_the_actions_the_view_lists(data: Any, players: int) -> None:
    table = StudTable({"small_bet": 10})
    table.start({seat: data.draw(st.integers(1, 300)) for seat in range(1, players + 1)})
    deck = list(data.draw(st.permutations(ALL_CODES)))
    while table.state.phase == DEALING:
        table.apply(RecordCard(deck.pop()))
    state = table.state
    if state.phase != BETTING or state.betting is None or state.betting.to_act is None:
        return
    seat = state.betting.to_act
    listed = {(o.kind, o.to) for o in options(state, seat)}
    amounts = {amount + delta for _, amount in listed for delta in (-1, 0, 1, 5)}
    for kind in ACTION_KINDS:
        for amount in amounts:
            try:
                events = decide(state, Action(kind, seat, amount))
            except RuleError:
                assert (kind, amount) not in listed
            else:
                assert (kind, amount) in listed or kind == "fold"
                assert events[0].data["to"] in {a for k, a in listed if k == kind}
