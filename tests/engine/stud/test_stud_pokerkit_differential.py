"""Differential test: the engine and pokerkit play the same hands where their rules coincide.

They coincide with six players at most (the deck never runs out), the open-pair option off,
the cap kept heads-up, the bring-in tie broken by suit, the odd chip left of the dealer and no
rake. Deep stacks first; then short stacks, where players go all-in calling on every street
and side pots form (a short all-in *bet or raise* is left out: there the reopening rules of
RULES.md 2.3 are the engine's own). Both engines are fed the same cards and the same
decisions; at every step they must agree on whose turn it is and whether a raise is allowed,
and at the end on every player's stack.
"""

from random import Random

import pytest
from pokerkit import Automation, FixedLimitSevenCardStud, State

from tables.engine.poker.cards import ALL_CODES
from tables.engine.stud.betting import AGGRESSIVE, Option, options, targets
from tables.engine.stud.commands import Action, AwardPots, Burn, RecordCard, Show
from tables.engine.stud.showdown import next_to_show
from tables.engine.stud.state import AWARDING, BETTING, DEALING, SHOWDOWN
from tables.engine.stud.table import StudTable

SETTINGS = {
    "small_bet": 10,
    "open_pair_big_bet": False,
    "heads_up_uncapped": False,
    "bring_in_tie": "suit",
    "odd_chip": "left_of_dealer",
}
STACK = 1000
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def _reference(stacks: list[int]) -> State:
    return FixedLimitSevenCardStud.create_state(
        AUTOMATIONS, False, 2, 5, 10, 20, stacks, len(stacks), divmod=divmod
    )


def play_both(seed: int, players: int, stacks: list[int] | None = None) -> tuple[StudTable, State]:
    rng = Random(seed)
    stacks = stacks or [STACK] * players
    table, reference = StudTable(SETTINGS), _reference(stacks)
    table.start(dict(enumerate(stacks, start=1)))
    deck = rng.sample(ALL_CODES, len(ALL_CODES))
    while table.state.phase not in ("complete",):
        state = table.state
        if state.phase == DEALING:
            _deal(table, reference, deck)
        elif state.phase == BETTING and state.betting and state.betting.to_act is not None:
            _act(table, reference, rng)
        elif state.phase == SHOWDOWN:
            seat = next_to_show(state)
            assert seat is not None
            table.apply(Show(seat))
        elif state.phase == AWARDING:
            table.apply(AwardPots())
    return table, reference


def _deal(table: StudTable, reference: State, deck: list[str]) -> None:
    if table.state.burn_open:
        card = deck.pop()
        table.apply(Burn(card))
        reference.burn_card(card)
    card = deck.pop()
    assert reference.hole_dealee_index == table.state.deal_queue[0].seat - 1
    table.apply(RecordCard(card))
    reference.deal_hole(card)


def _act(table: StudTable, reference: State, rng: Random) -> None:
    state = table.state
    assert state.betting is not None
    seat = state.betting.to_act
    assert seat is not None
    assert reference.actor_index == seat - 1, "the engines disagree on whose turn it is"
    # A bet or raise all-in for less than a whole bet follows RULES.md's reopening rules (half
    # a bet reopens), not the reference's: only whole bets and raises are played here. Against
    # opponents who cannot cover even the present bet the reference allows no raise, the
    # engine does (the excess comes back uncalled); RULES.md is silent, so no raise is made.
    betting = state.betting
    others = [s for s in state.seats if s.can_bet and s.seat != seat]
    covered = any(s.street_bet + s.stack > betting.level for s in others)
    whole = targets(state)
    every = options(state, seat)
    legal = tuple(o for o in every if o.kind not in AGGRESSIVE or (covered and o.to in whole))
    aggressive = [o for o in legal if o.kind in AGGRESSIVE]
    minimum = reference.min_completion_betting_or_raising_to_amount
    can_raise = minimum is not None and reference.can_complete_bet_or_raise_to()
    if covered and (aggressive or not any(o.kind in AGGRESSIVE for o in every)):
        assert bool(aggressive) == can_raise
    if aggressive:
        assert aggressive[0].to == minimum
    choice = _choose(legal, rng)
    table.apply(Action(choice.kind, seat, choice.to))
    _mirror(reference, choice)


def _choose(legal: tuple[Option, ...], rng: Random) -> Option:
    # pokerkit has no fold when checking is free; the engine allows it (TDA 58), so skip it here.
    can_check = any(o.kind == "check" for o in legal)
    candidates = [o for o in legal if not (o.kind == "fold" and can_check)]
    weights = [{"fold": 1, "check": 3, "call": 4, "bring_in": 3}.get(o.kind, 2) for o in candidates]
    return rng.choices(candidates, weights)[0]


def _mirror(reference: State, choice: Option) -> None:
    if choice.kind == "fold":
        reference.fold()
    elif choice.kind in ("check", "call"):
        reference.check_or_call()
    elif choice.kind == "bring_in":
        reference.post_bring_in()
    else:
        reference.complete_bet_or_raise_to(choice.to)


def _stacks(table: StudTable) -> list[int]:
    return [seat.stack for seat in table.state.seats]


@pytest.mark.parametrize("seed", range(60))
def test_engine_and_pokerkit_agree_on_turns_raises_and_stacks(seed: int) -> None:
    players = 2 + seed % 5
    table, reference = play_both(seed, players)

    assert not reference.status
    assert _stacks(table) == list(reference.stacks)
    assert [stack - STACK for stack in _stacks(table)] == list(reference.payoffs)
    assert table.state.result is not None
    winners = {share["seat"] for pot in table.state.result["pots"] for share in pot["shares"]}
    # A split winner can still lose chips overall, so only the gainers are sure to be winners.
    assert {index + 1 for index, payoff in enumerate(reference.payoffs) if payoff > 0} <= winners


@pytest.mark.slow
def test_engine_and_pokerkit_agree_over_a_thousand_more_hands() -> None:
    for seed in range(1000, 2000):
        table, reference = play_both(seed, 2 + seed % 5)
        assert _stacks(table) == list(reference.stacks), f"seed {seed}"


def short_stacks(seed: int, players: int) -> list[int]:
    """From a few bets to deep: all-ins come on every street, and side pots with them."""
    rng = Random(seed)
    return [rng.choice((rng.randint(13, 60), rng.randint(60, 250), STACK)) for _ in range(players)]


def all_in_streets(table: StudTable) -> set[int]:
    return {e.data["street"] for e in table.events if e.type == "action.taken" and e.data["all_in"]}


@pytest.mark.parametrize("seed", range(120))
def test_engine_and_pokerkit_agree_with_short_stacks_all_ins_and_side_pots(seed: int) -> None:
    players = 2 + seed % 5
    stacks = short_stacks(seed, players)
    table, reference = play_both(seed, players, stacks)

    assert not reference.status
    assert _stacks(table) == list(reference.stacks)
    assert sum(_stacks(table)) == sum(stacks)


def test_the_short_stack_hands_go_all_in_on_every_street_and_make_side_pots() -> None:
    streets: set[int] = set()
    side_pots = 0
    for seed in range(120):
        players = 2 + seed % 5
        table, _ = play_both(seed, players, short_stacks(seed, players))
        streets |= all_in_streets(table)
        assert table.state.result is not None
        side_pots += len(table.state.result["pots"]) > 1
    assert streets == {3, 4, 5, 6, 7}
    assert side_pots >= 10


@pytest.mark.slow
def test_engine_and_pokerkit_agree_on_a_thousand_short_stack_hands() -> None:
    for seed in range(5000, 6000):
        players = 2 + seed % 5
        table, reference = play_both(seed, players, short_stacks(seed, players))
        assert _stacks(table) == list(reference.stacks), f"seed {seed}"
