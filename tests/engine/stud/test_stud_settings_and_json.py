"""Table settings, commands from JSON, and what the live screens may show."""

from decimal import Decimal
from typing import Any

import pytest

from tables.engine.errors import InvalidInputError, RuleError
from tables.engine.game import Game
from tables.engine.stud import STUD, StudSettings, audit_view, command_from_json, live_view
from tables.engine.stud.commands import Action, AwardPots, RecordCard, SeatEntry, Show, StartHand
from tables.engine.stud.table import StudTable


def test_defaults_follow_the_seed_ratios() -> None:
    settings = StudSettings.from_mapping({"small_bet": 100})

    assert (settings.big_bet, settings.ante, settings.bring_in) == (200, 20, 50)
    assert settings.raise_cap == 3
    assert settings.heads_up_uncapped
    assert settings.open_pair_big_bet
    assert settings.burns
    assert settings.bring_in_tie == settings.high_hand_tie == "position"
    assert settings.short_stub == "community"
    assert settings.odd_chip == "high_card_by_suit"
    assert settings.rake_percent == Decimal(0)


def test_settings_round_trip_through_a_mapping() -> None:
    raw = {"small_bet": 20, "rake_percent": "2.5", "rake_cap": 40, "odd_chip": "left_of_dealer"}
    settings = StudSettings.from_mapping(raw)

    assert StudSettings.from_mapping(settings.to_mapping()) == settings
    assert settings.to_mapping()["rake_percent"] == "2.5"


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ({}, "missing_setting"),
        ({"small_bet": 10, "chip": 5}, "not_whole_chips"),
        ({"small_bet": 15}, "not_whole_chips"),
        ({"small_bet": 10, "big_bet": 5}, "bad_limits"),
        ({"small_bet": 10, "bring_in": 20}, "bad_limits"),
        ({"small_bet": 10, "rake_percent": 0.05}, "invalid_setting"),
        ({"small_bet": 10, "rake_percent": "150"}, "invalid_setting"),
        ({"small_bet": 10, "rake_percent": "five"}, "invalid_setting"),
        ({"small_bet": 10, "raise_cap": -1}, "invalid_setting"),
        ({"small_bet": 10, "burns": "yes"}, "invalid_setting"),
        ({"small_bet": 10, "short_stub": "pray"}, "invalid_setting"),
        ({"small_bet": True}, "invalid_setting"),
        ({"small_bet": 10, "rake_unit": 3, "rake_cap": 10}, "not_whole_chips"),
        ({"small_bet": 10, "colour": "red"}, "unknown_setting"),
    ],
)
def test_bad_settings_are_refused_with_a_code(raw: dict[str, Any], code: str) -> None:
    with pytest.raises(InvalidInputError) as refused:
        StudSettings.from_mapping(raw)

    assert refused.value.code == code


def test_the_game_object_satisfies_the_game_contract() -> None:
    game: Game[Any, Any] = STUD
    state = game.new_state({"small_bet": 10})

    events = game.decide(state, StartHand((SeatEntry(1, "ana", 50), SeatEntry(2, "ben", 50))))

    assert game.name == "seven_card_stud"
    assert [e.type for e in events] == ["hand.started", "ante.posted", "ante.posted"]


def test_commands_are_built_from_json_bodies() -> None:
    start = command_from_json("start_hand", {"seats": [{"seat": 2, "player_id": "7", "stack": 90}]})

    assert start == StartHand((SeatEntry(2, "7", 90),))
    assert command_from_json("raise", {"seat": 3, "amount": 40}) == Action("raise", 3, 40)
    assert command_from_json("record_card", {"card": None}) == RecordCard(None)
    assert command_from_json("show", {"seat": 1, "cards": ["As"]}) == Show(1, ("As",))
    assert command_from_json("award_pots", {}) == AwardPots()


@pytest.mark.parametrize(
    ("kind", "body", "code"),
    [
        ("raise", {"seat": "3"}, "invalid_field"),
        ("raise", {"seat": 3, "amount": 10.5}, "invalid_field"),
        ("call", {}, "missing_field"),
        ("start_hand", {"seats": []}, "invalid_field"),
        ("start_hand", {"seats": [{"seat": 1, "stack": 10}]}, "missing_field"),
        ("start_hand", {"seats": [{"seat": 1, "player_id": 7, "stack": 10}]}, "invalid_field"),
        ("record_card", {"card": 5}, "invalid_field"),
        ("record_card", {"card": "As", "source": "pigeon"}, "invalid_field"),
        ("show", {"seat": 1, "cards": "AsKs"}, "invalid_field"),
        ("void_hand", {"reason": "  "}, "invalid_field"),
        ("kill_hand", {"seat": 1}, "missing_field"),
        ("void_hand", {"reason": "misdeal", "cause": "bad luck"}, "invalid_field"),
        ("void_hand", {"reason": "misdeal", "approved_by": 7}, "invalid_field"),
        ("record_card", {"card": "As", "exposed": "yes"}, "invalid_field"),
        ("correct_held_card", {}, "missing_field"),
        ("fold", {"seat": 1, "kind": "raise"}, "unknown_field"),
    ],
)
def test_malformed_json_is_refused(kind: str, body: dict[str, Any], code: str) -> None:
    """The codes are the one parser's, the same Siete y Medio answers (test_command_json)."""
    with pytest.raises(InvalidInputError) as refused:
        command_from_json(kind, body)

    assert refused.value.code == code


def test_an_unknown_command_is_refused() -> None:
    with pytest.raises(InvalidInputError) as refused:
        command_from_json("shuffle_up_and_deal", {})

    assert refused.value.code == "unknown_command"


def test_the_live_view_never_shows_a_hole_card_before_the_showdown() -> None:
    table = StudTable({"small_bet": 10})
    table.start({1: 100, 2: 100})
    table.deal(["Ah", "Kh", "Ad", "Kd", "Ac", "2c"])

    live, audit = live_view(table.state), audit_view(table.state)

    assert "Ah" not in repr(live)
    assert "Kd" not in repr(live)
    assert live["seats"][0]["up_cards"] == ["Ac"]
    assert live["seats"][0]["down_count"] == 2
    assert audit["seats"][0]["down_cards"] == ["Ah", "Ad"]


def test_the_live_view_is_json_ready_and_lists_exact_amounts() -> None:
    import json

    table = StudTable({"small_bet": 10, "rake_percent": "5"})
    table.start({1: 100, 2: 100})
    table.deal(["Ah", "Kh", "Ad", "Kd", "Ac", "2c"])

    view = live_view(table.state)

    assert json.loads(json.dumps(view)) == view
    assert view["legal_actions"] == [
        {"action": "bring_in", "amount": 5, "adds": 5, "all_in": False},
        {"action": "complete", "amount": 10, "adds": 10, "all_in": False},
    ]
    assert json.loads(json.dumps(audit_view(table.state)))["settings"]["rake_percent"] == "5"


def test_a_hand_needs_two_players_with_chips() -> None:
    table = StudTable({"small_bet": 10})

    with pytest.raises(RuleError) as refused:
        table.start({1: 100, 2: 0})

    assert refused.value.code == "not_enough_players"
    assert table.events == []


def test_a_short_stack_sits_out_under_the_sit_out_setting() -> None:
    table = StudTable({"small_bet": 10, "short_ante": "sit_out"})
    table.start({1: 100, 2: 1, 3: 100})

    assert [s.seat for s in table.state.seats] == [1, 3]
    assert table.state.sitting_out == (2,)
