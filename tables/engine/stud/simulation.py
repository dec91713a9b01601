"""Play whole hands through the engine with random or calling players, checking invariants.

The random source comes in as an argument; every command goes through `decide`, so a
simulated hand obeys exactly the rules a live table does.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

from tables.engine.errors import RuleError
from tables.engine.poker.cards import ALL_CODES
from tables.engine.stud.betting import Option, options
from tables.engine.stud.commands import (
    Action,
    AwardPots,
    Burn,
    ClockExpired,
    Command,
    Muck,
    RecordCard,
    Show,
)
from tables.engine.stud.dealing import DECK_SIZE
from tables.engine.stud.invariants import Tally, check_hand, count_hand
from tables.engine.stud.settings import CHOICES, StudSettings
from tables.engine.stud.showdown import next_to_show
from tables.engine.stud.state import AWARDING, BETTING, DEALING, DOWN, SHOWDOWN, StudState
from tables.engine.stud.table import StudTable

POLICIES = ("random", "calling-station")
DEFAULT_SETTINGS: dict[str, Any] = {"small_bet": 10, "rake_percent": "5", "rake_cap": 30}
MAX_COMMANDS_PER_HAND = 1000


def simulate(
    hands: int,
    players: int,
    policy: str,
    rng: Random,
    settings: dict[str, Any] | None = None,
    *,
    check: bool = True,
    random_settings: bool = False,
) -> dict[str, Any]:
    """Play `hands` complete hands and return the tallies and every invariant checked.

    `check=False` skips the invariant checks (for measuring the engine alone).
    `random_settings=True` draws new table settings, and 2 to `players` players, every hand.
    """
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}")
    if not 2 <= players <= 8:
        raise ValueError("Stud is played by two to eight players")
    stud_settings = StudSettings.from_mapping(settings or DEFAULT_SETTINGS)
    tally = Tally()
    for _ in range(hands):
        tally.hands += 1
        seated = players
        if random_settings:
            stud_settings = draw_settings(rng)
            seated = rng.randint(2, players)
            _count_settings(stud_settings, tally)
        play_hand(stud_settings, seated, policy, rng, tally, check=check)
    return report(tally, policy, players, stud_settings)


def draw_settings(rng: Random) -> StudSettings:
    """Settings a casino may choose: its own amounts, and every option at random."""
    chip = rng.choice((1, 1, 5))
    units = rng.choice((2, 3, 4, 5, 10, 20))  # the small bet in chips
    raw: dict[str, Any] = {
        "chip": chip,
        "small_bet": units * chip,
        "big_bet": rng.choice((2, 2, 2, 1, 3)) * units * chip,
        "raise_cap": rng.choice((0, 1, 2, 3, 3, 4)),
        "rake_percent": rng.choice(("0", "2.5", "5", "10")),
    }
    raw.update({name: rng.choice(values) for name, values in CHOICES.items()})
    for flag in ("heads_up_uncapped", "open_pair_big_bet", "burns"):
        raw[flag] = rng.random() < 0.5
    if rng.random() < 0.5 or units % 5:
        raw["ante"] = chip * rng.randint(0, max(1, units // 2))  # R7: taken as given
    if rng.random() < 0.5 or units % 2:
        raw["bring_in"] = chip * rng.randint(1, units - 1)  # R8: below the small bet
    rake_unit = chip * rng.choice((1, 1, 2))
    raw["rake_unit"] = rake_unit
    raw["rake_cap"] = rng.choice((None, rake_unit * rng.randint(0, 3 * units)))
    return StudSettings.from_mapping(raw)


def _count_settings(settings: StudSettings, tally: Tally) -> None:
    for name in ("high_hand_tie", "short_ante", "out_of_turn", "short_stub", "odd_chip"):
        tally.settings_drawn[f"{name}={getattr(settings, name)}"] += 1
    tally.settings_drawn[f"heads_up_uncapped={settings.heads_up_uncapped}"] += 1
    tally.settings_drawn[
        "explicit_ante" if settings.ante * 5 != settings.small_bet else "ante_s/5"
    ] += 1


def report(tally: Tally, policy: str, players: int, settings: StudSettings) -> dict[str, Any]:
    return {
        "policy": policy,
        "players": players,
        "settings": settings.to_mapping(),
        "hands": tally.hands,
        "showdowns": tally.showdowns,
        "community_card_hands": tally.community_card_hands,
        "side_pots": tally.side_pots,
        "split_pots": tally.split_pots,
        "odd_chip_pots": tally.odd_chip_pots,
        "all_in_hands": tally.all_in_hands,
        "hands_won_on_third": tally.hands_won_on_third,
        "unknown_hole_card_hands": tally.unknown_hole_card_hands,
        "out_of_turn_or_clock_actions": tally.irregular_actions,
        "rake_total": tally.rake_total,
        "all_in_by_street": dict(sorted(tally.all_in_by_street.items())),
        "settings_drawn": dict(sorted(tally.settings_drawn.items())),
        "chips_start": tally.chips_start,
        "chips_end": tally.chips_end,
        "commands": tally.commands,
        "invariants": {name: {"checked": count} for name, count in sorted(tally.checks.items())},
        "violations": tally.violations,
        "ok": not tally.violations,
    }


def starting_stacks(settings: StudSettings, players: int, rng: Random) -> dict[int, int]:
    """Short and uneven stacks, so that all-ins, side pots and split pots happen often."""
    # Two must be dealt in: under sit_out only a stack of the ante or more is.
    least = settings.ante if settings.short_ante == "sit_out" else 1
    stacks = _draw_stacks(settings, players, rng)
    while sum(stack >= least for stack in stacks.values()) < 2:
        stacks = _draw_stacks(settings, players, rng)
    return stacks


def _draw_stacks(settings: StudSettings, players: int, rng: Random) -> dict[int, int]:
    """Stacks from below the ante to deep, so that all-ins come on every street."""
    small, big = settings.small_bet, settings.big_bet
    stacks = {}
    for seat in range(1, players + 1):
        bucket = rng.random()
        if bucket < 0.1:
            low, high = 1, max(1, settings.ante + settings.bring_in)  # all-in on the ante
        elif bucket < 0.35:
            low, high = 1, 3 * small
        elif bucket < 0.6:
            low, high = 3 * small, 3 * small + 6 * big  # all-in on a later street
        else:
            low, high = 5 * small, 40 * small
        chips = rng.randint(max(1, low // settings.chip), max(1, high // settings.chip))
        stacks[seat] = chips * settings.chip
    return stacks


def play_hand(
    settings: StudSettings,
    players: int,
    policy: str,
    rng: Random,
    tally: Tally,
    *,
    check: bool = True,
) -> None:
    table = StudTable(settings)
    stacks = starting_stacks(settings, players, rng)
    table.start(stacks)
    deck = rng.sample(ALL_CODES, len(ALL_CODES))
    hidden = rng.random() < 0.3  # tablet entry: face-down cards unknown until shown
    tally.unknown_hole_card_hands += hidden
    truth: dict[int, list[str]] = {}
    choose = _station if policy == "calling-station" else _random_choice
    burned: list[str] = []
    for _ in range(MAX_COMMANDS_PER_HAND):
        if policy == "random" and table.state.phase == BETTING and rng.random() < 0.05:
            tally.irregular_actions += _irregular_action(table, rng)
        # After the irregular action too: it may end a street and scramble the burns back.
        restock(table.state, deck, burned, rng)
        command = _next_command(table.state, deck, truth, hidden, rng, choose)
        if isinstance(command, Burn) and command.card is not None:
            burned.append(command.card)
        if command is None:
            break
        table.apply(command)
        tally.commands += 1
    count_hand(table, stacks, tally)
    if check:
        check_hand(table, stacks, tally)


def _irregular_action(table: StudTable, rng: Random) -> bool:
    """A player acting out of turn, or the clock running out: tried, and refused or recorded."""
    state = table.state
    betting = state.betting
    if betting is None or betting.to_act is None:
        return False
    if rng.random() < 0.3:
        command: Command = ClockExpired(betting.to_act)
    else:
        waiting = [s.seat for s in state.can_bet() if s.seat != betting.to_act]
        if not waiting:
            return False
        kind = rng.choice(("fold", "check", "call", "call", "bet", "raise"))
        command = Action(kind, rng.choice(waiting), None)
    try:
        table.apply(command)
    except RuleError:
        return False
    return True


def restock(state: StudState, deck: list[str], burned: list[str], rng: Random) -> None:
    """When the engine scrambles the burns back into the stub, the dealer's deck gets them too."""
    if len(deck) < DECK_SIZE - state.drawn:
        deck.extend(burned)
        burned.clear()
        rng.shuffle(deck)


def _next_command(
    state: StudState,
    deck: list[str],
    truth: dict[int, list[str]],
    hidden: bool,
    rng: Random,
    choose: Callable[[tuple[Option, ...], Random], Option],
) -> Command | None:
    if state.phase == DEALING:
        if state.burn_open and rng.random() < 0.9:
            return Burn(deck.pop(), source="simulation")
        due = state.deal_queue[0]
        card = deck.pop()
        if due.face == DOWN:
            truth.setdefault(due.seat, []).append(card)
            if hidden:
                return RecordCard(None, source="simulation")
        return RecordCard(card, source="simulation")
    if state.phase == BETTING and state.betting is not None and state.betting.to_act is not None:
        seat = state.betting.to_act
        option = choose(options(state, seat), rng)
        return Action(option.kind, seat, option.to)
    if state.phase == SHOWDOWN:
        return _showdown_command(state, truth, hidden, rng)
    if state.phase == AWARDING:
        return AwardPots()
    return None


def _showdown_command(
    state: StudState, truth: dict[int, list[str]], hidden: bool, rng: Random
) -> Command:
    seat = next_to_show(state)
    assert seat is not None
    live = sum(1 for s in state.in_hand() if s.live)
    if not state.must_show and live > 1 and rng.random() < 0.15:
        return Muck(seat)
    return Show(seat, tuple(truth[seat]) if hidden else ())


def _random_choice(legal: tuple[Option, ...], rng: Random) -> Option:
    weights = {"fold": 1, "check": 4, "call": 4, "bring_in": 3, "complete": 2, "bet": 3, "raise": 3}
    return rng.choices(legal, [weights.get(o.kind, 2) for o in legal])[0]


def _station(legal: tuple[Option, ...], rng: Random) -> Option:
    for kind in ("bring_in", "check", "call"):
        for option in legal:
            if option.kind == kind:
                return option
    return legal[0]
