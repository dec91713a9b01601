"""Golden hands: data files under golden/, one scenario per rule of RULES.md section 2.

Each scenario gives the settings, the stacks by seat and a list of steps:
``{"deal": [...]}`` records cards in dealing order (null = a face-down card not read),
``{"burn": "Xx"}`` records a burn, ``{"do": "<command>", ...}`` sends a command built by
``command_from_json``, with ``"error": "<code>"`` when the rules must refuse it (then nothing
may be recorded), and ``{"expect": {...}}`` compares the live view (and a few audit fields).
"""

import json
from pathlib import Path
from typing import Any

import pytest

from tables.engine.errors import RuleError
from tables.engine.stud import command_from_json
from tables.engine.stud.commands import Burn, RecordCard
from tables.engine.stud.table import StudTable
from tables.engine.stud.view import audit_view, live_view

GOLDEN = Path(__file__).parent / "golden"


def _scenarios() -> list[Any]:
    found = []
    for path in sorted(GOLDEN.glob("*.json")):
        document = json.loads(path.read_text())
        for scenario in document["scenarios"]:
            found.append(pytest.param(scenario, id=f"{path.stem}:{scenario['name']}"))
    return found


@pytest.mark.parametrize("scenario", _scenarios())
def test_golden_hand_plays_as_the_rules_say(scenario: dict[str, Any]) -> None:
    if "settings_error" in scenario:
        with pytest.raises(RuleError) as refused:
            StudTable(scenario["settings"])
        assert refused.value.code == scenario["settings_error"]
        return
    table = StudTable(scenario["settings"])
    table.start({int(seat): stack for seat, stack in scenario["stacks"].items()})
    for index, step in enumerate(scenario["steps"]):
        try:
            _run(table, step)
        except AssertionError as failure:
            raise AssertionError(f"step {index}: {step}: {failure}") from failure


# A step's own words, never a command's field (the parser refuses a field a command lacks).
STEP_WORDS = ("do", "error", "expect", "note")


def _run(table: StudTable, step: dict[str, Any]) -> None:
    if "do" in step:
        body = {k: v for k, v in step.items() if k not in STEP_WORDS}
        _command(table, command_from_json(step["do"], body), step.get("error"))
    elif "deal" in step:
        table.deal(step["deal"])
    elif "burn" in step:
        _command(table, Burn(step["burn"]), step.get("error"))
    elif "card" in step:
        card = RecordCard(
            step["card"],
            step.get("seat"),
            source=step.get("source", "tablet"),
            exposed=step.get("exposed", False),
        )
        _command(table, card, step.get("error"))
    if "expect" in step:
        _compare(table, step["expect"])


def _command(table: StudTable, command: Any, error: str | None) -> None:
    if error is None:
        table.apply(command)
        return
    before, events = table.state, list(table.events)
    with pytest.raises(RuleError) as refused:
        table.apply(command)
    assert refused.value.code == error, refused.value.message
    assert refused.value.message.endswith(".")
    assert table.state == before, "a refused command changed the hand"
    assert table.events == events, "a refused command recorded an event"


def _compare(table: StudTable, expected: dict[str, Any]) -> None:
    actual = _observed(table)
    for key, value in expected.items():
        assert actual[key] == value, f"{key}: expected {value!r}, got {actual[key]!r}"


def _observed(table: StudTable) -> dict[str, Any]:
    view, audit = live_view(table.state), audit_view(table.state)
    result = view["result"] or {}
    return {
        **view,
        "legal": [[a["action"], a["amount"]] for a in view["legal_actions"]],
        "pots": [[p["amount"], p["eligible"]] for p in view["pots"]],
        "stacks": {str(s["seat"]): s["stack"] for s in view["seats"]},
        "committed": {str(s["seat"]): s["committed"] for s in view["seats"]},
        "up_cards": {str(s["seat"]): s["up_cards"] for s in view["seats"]},
        "statuses": {str(s["seat"]): s["status"] for s in view["seats"]},
        "payouts": {str(p["seat"]): p["amount"] for p in result.get("payouts", [])},
        "rake_total": result.get("rake_total"),
        "awarded": [
            [p["amount"], p["rake"], {str(s["seat"]): s["amount"] for s in p["shares"]}]
            for p in result.get("pots", [])
        ],
        "showdown_order": audit["showdown_order"],
        "returned": _returned(table),
        "last_event": table.events[-1].type if table.events else None,
        "event_types": [event.type for event in table.events],
    }


def _returned(table: StudTable) -> list[list[int]]:
    return [
        [r["seat"], r["amount"]]
        for e in table.events
        if e.type == "betting.closed"
        for r in e.data["returned"]
    ]


REQUIRED = {
    "bring_in": [
        "tie_by_position_goes_to_the_first_from_the_dealers_left",
        "completion_is_the_bet_and_raises_follow_in_small_bets",
        "no_completion_the_bring_in_owes_nothing_more",
    ],
    "betting_limits": [
        "open_pair_allows_the_big_bet_and_every_later_raise_is_big",
        "heads_up_the_cap_does_not_apply",
        "a_cap_reached_three_handed_still_applies_heads_up",
    ],
    "first_to_act": ["equal_showing_hands_go_to_the_first_from_the_dealers_left"],
    "community_card": ["eight_players_to_seventh_street_use_one_community_card"],
    "showdown_order": [
        "without_a_seventh_street_bet_the_first_to_act_shows_first",
        "the_last_bettor_on_seventh_shows_first",
    ],
    "side_pots": ["two_all_in_players_make_two_side_pots"],
    "split_pot": ["three_way_split_gives_the_odd_chip_to_the_highest_card_by_suit"],
    "rake": ["a_hand_everyone_folds_on_third_street_is_not_raked"],
    "void": ["a_voided_hand_returns_every_chip"],
    "rulings": [
        "r7_an_explicit_ante_and_bring_in_are_taken_as_given",
        "r8_a_bring_in_equal_to_the_small_bet_is_refused",
        "r9_a_short_completion_by_the_bring_in_player_is_called_or_completed",
        "r10_the_raise_that_reaches_the_cap_keeps_it_heads_up",
        "r11_a_lone_player_who_owes_nothing_is_not_asked_to_act",
        "r12_a_pot_of_one_players_chips_is_returned_unraked",
        "r13_showdown_order_with_no_bet_on_the_last_round_starts_at_the_high_hand",
        "r14_high_hand_tie_by_suit_compares_the_highest_card",
    ],
}


def test_golden_files_hold_every_required_hand() -> None:
    for stem, names in REQUIRED.items():
        document = json.loads((GOLDEN / f"{stem}.json").read_text())
        assert document["rules"], stem
        assert set(names) <= {scenario["name"] for scenario in document["scenarios"]}, stem
