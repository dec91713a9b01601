"""What must hold after every hand: chips conserved, legal actions, replay, no card twice."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tables.engine.game import Event
from tables.engine.stud.betting import options
from tables.engine.stud.evolve import evolve
from tables.engine.stud.state import COMPLETE, StudState
from tables.engine.stud.table import StudTable

CARD_EVENTS = ("card.dealt", "card.burned", "card.community", "card.dead")


@dataclass
class Tally:
    hands: int = 0
    showdowns: int = 0
    community_card_hands: int = 0
    side_pots: int = 0
    split_pots: int = 0
    odd_chip_pots: int = 0
    all_in_hands: int = 0
    hands_won_on_third: int = 0
    unknown_hole_card_hands: int = 0
    irregular_actions: int = 0
    rake_total: int = 0
    chips_start: int = 0
    chips_end: int = 0
    commands: int = 0
    all_in_by_street: Counter[str] = field(default_factory=Counter)
    settings_drawn: Counter[str] = field(default_factory=Counter)
    checks: Counter[str] = field(default_factory=Counter)
    violations: list[str] = field(default_factory=list)

    def check(self, name: str, holds: bool, detail: str = "") -> None:
        self.checks[name] += 1
        if not holds:
            self.violations.append(f"hand {self.hands}: {name} {detail}".strip())


def count_hand(table: StudTable, stacks: dict[int, int], tally: Tally) -> None:
    """Add a finished hand's chips and outcomes to the tallies."""
    state = table.state
    tally.chips_start += sum(stacks.values())
    tally.chips_end += sum(s.stack for s in state.seats) + sum(stacks[n] for n in state.sitting_out)
    if state.result is not None:
        tally.rake_total += int(state.result["rake_total"])
        _count(state, state.result, tally)


def check_hand(table: StudTable, stacks: dict[int, int], tally: Tally) -> None:
    state = table.state
    tally.check("hand_completes", state.phase == COMPLETE, f"stopped in {state.phase}")
    if state.result is None:
        return
    _check_money(state, stacks, state.result, tally)
    _check_cards_and_replay(table, tally)


def _check_money(
    state: StudState, stacks: dict[int, int], result: dict[str, Any], tally: Tally
) -> None:
    start = sum(stacks.values())
    end = sum(s.stack for s in state.seats) + sum(stacks[n] for n in state.sitting_out)
    rake = int(result["rake_total"])
    tally.check("chips_conserved", start == end + rake, f"{start} != {end} + {rake}")
    in_pots = sum(pot["amount"] for pot in result["pots"])
    committed = sum(s.committed for s in state.seats)
    tally.check("pots_hold_every_committed_chip", in_pots == committed, f"{in_pots}/{committed}")
    cap = state.settings.rake_cap
    tally.check("rake_within_cap", cap is None or rake <= cap, str(rake))
    tally.check("no_rake_without_fourth_street", state.fourth_dealt or rake == 0, str(rake))
    tally.check("stacks_never_negative", all(s.stack >= 0 for s in state.seats))
    for pot in result["pots"]:
        winners = {share["seat"] for share in pot["shares"]}
        tally.check("winners_eligible", winners <= set(pot["eligible"]), str(pot))
        paid = sum(share["amount"] for share in pot["shares"])
        tally.check("pot_paid_in_full", paid + pot["rake"] == pot["amount"], str(pot))
        if pot["returned"]:
            tally.check("a_returned_pot_is_unraked", pot["rake"] == 0, str(pot))


def _check_cards_and_replay(table: StudTable, tally: Tally) -> None:
    """One walk through the log: replaying it reproduces the state, every action was legal and
    in turn then, and no card came twice (except burns the short-stub rule scrambled back)."""
    seen: list[str] = []
    walking = table.initial
    for event in table.events:
        if event.type == "action.taken":
            _check_action(walking, event, tally)
        after = evolve(walking, event)
        if walking.burns and not after.burns:
            recycled = set(walking.burns)
            seen = [card for card in seen if card not in recycled]
        if event.type in CARD_EVENTS and event.data["card"]:
            seen.append(event.data["card"])
        if event.type == "hand.shown":
            before = walking.seat(event.data["seat"]).down
            revealed = zip(event.data["down_cards"], before, strict=True)
            seen.extend(card for card, known in revealed if known is None)
        walking = after
    tally.check("replay_reproduces_state", walking == table.state)
    tally.check("no_card_twice", len(seen) == len(set(seen)), str(Counter(seen).most_common(1)))
    state = table.state
    for seat in state.seats:
        if seat.shown:
            count = len(seat.down) + len(seat.up) + len(state.community)
            tally.check("seven_cards_at_showdown", count == 7, f"seat {seat.seat}: {count}")


def _check_action(state: StudState, event: Event, tally: Tally) -> None:
    data = event.data
    betting = state.betting
    assert betting is not None
    if data["out_of_turn"]:
        tally.check("only_folds_out_of_turn", data["action"] == "fold")
        return
    tally.check("action_in_turn", betting.to_act == data["seat"], str(data))
    owes = state.seat(data["seat"]).street_bet < betting.level
    tally.check("a_lone_player_is_asked_only_when_he_owes", len(state.can_bet()) > 1 or owes)
    if data["all_in"]:
        tally.all_in_by_street[str(betting.street)] += 1
    legal = {(o.kind, o.to) for o in options(state, data["seat"])}
    tally.check("action_legal", (data["action"], data["to"]) in legal, str(data))
    if data["full"] and not data["all_in"]:
        base = betting.full_level if betting.count else 0
        sizes = {state.settings.small_bet} if betting.street <= 4 else {state.settings.big_bet}
        if betting.big_option:
            sizes.add(state.settings.big_bet)
        if betting.street == 4 and betting.size == state.settings.big_bet:
            sizes = {state.settings.big_bet}
        tally.check("fixed_limit_size", data["to"] - base in sizes, str(data))
        heads_up = len(state.can_bet()) <= 2 and state.settings.heads_up_uncapped
        within_cap = betting.count < state.settings.raise_cap + 1
        tally.check("raise_cap", within_cap or heads_up, str(data))


def _count(state: StudState, result: dict[str, Any], tally: Tally) -> None:
    tally.showdowns += len(result["hands"]) >= 2
    tally.community_card_hands += bool(state.community)
    tally.side_pots += max(0, len(result["pots"]) - 1)
    for pot in result["pots"]:
        amounts = [share["amount"] for share in pot["shares"]]
        tally.split_pots += len(amounts) > 1
        tally.odd_chip_pots += len(set(amounts)) > 1
    tally.all_in_hands += any(s.committed == s.start_stack for s in state.seats)
    tally.hands_won_on_third += not state.fourth_dealt
