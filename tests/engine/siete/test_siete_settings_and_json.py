from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tables.engine.errors import InvalidInputError
from tables.engine.siete import (
    COMMAND_TYPES,
    PlaceWager,
    RecordCard,
    RequestDraw,
    SettingError,
    SieteSettings,
    StartRound,
    command_from_json,
)


def test_the_defaults_are_the_seeds_values() -> None:
    settings = SieteSettings.from_mapping({})
    assert settings.decks == 1
    assert settings.shuffle == "every_round"
    assert settings.ties == "push"
    assert settings.breakage == "down"
    assert settings.paytable == {"real": 2, "siete_y_medio": Fraction(3, 2), "puntaje": 1}
    assert (settings.exposed_player_card, settings.exposed_bank_card) == ("plays", "void")
    assert settings.misdrawn_card == "dead"
    assert (settings.burn_after_shuffle, settings.boxes_per_player) == (0, 1)


def test_settings_round_trip_through_their_mapping() -> None:
    mapping = {"min_stake": 10, "max_stake": 1000, "chip": 5, "paytable": {"siete_y_medio": "6:5"}}
    settings = SieteSettings.from_mapping(mapping)
    assert settings.ratio("siete_y_medio") == Fraction(6, 5)
    assert settings.to_mapping()["paytable"]["siete_y_medio"] == "6:5"
    assert SieteSettings.from_mapping(settings.to_mapping()) == settings


@pytest.mark.parametrize(
    ("mapping", "field", "code"),
    [
        ({"decks": 0}, "decks", "invalid_setting"),
        ({"decks": "2"}, "decks", "invalid_setting"),
        ({"decks": True}, "decks", "invalid_setting"),
        ({"ties": "player"}, "ties", "invalid_setting"),
        ({"shuffle": "never"}, "shuffle", "invalid_setting"),
        ({"breakage": "nearest"}, "breakage", "invalid_setting"),
        ({"exposed_player_card": "void"}, "exposed_player_card", "invalid_setting"),
        ({"exposed_bank_card": "redeal"}, "exposed_bank_card", "invalid_setting"),
        ({"misdrawn_card": "keep"}, "misdrawn_card", "invalid_setting"),
        ({"min_stake": 10, "max_stake": 5}, "max_stake", "invalid_setting"),
        ({"chip": 5, "min_stake": 12, "max_stake": 100}, "min_stake", "invalid_setting"),
        ({"chip": 0}, "chip", "invalid_setting"),
        ({"burn_after_shuffle": -1}, "burn_after_shuffle", "invalid_setting"),
        ({"boxes_per_player": 7}, "boxes_per_player", "invalid_setting"),
        ({"paytable": {"real": "0:1"}}, "paytable", "invalid_setting"),
        ({"paytable": {"real": "two"}}, "paytable", "invalid_setting"),
        ({"paytable": {"flush": "2:1"}}, "paytable", "invalid_setting"),
        ({"paytable": "2:1"}, "paytable", "invalid_setting"),
        ({"rake": 5}, "rake", "unknown_setting"),
    ],
)
def test_bad_settings_are_refused_with_the_field_named(
    mapping: dict[str, Any], field: str, code: str
) -> None:
    with pytest.raises(SettingError) as refused:
        SieteSettings.from_mapping(mapping)
    assert (refused.value.field, refused.value.code, refused.value.status) == (field, code, 422)


def test_paytable_ratios_may_be_pairs_or_whole_numbers() -> None:
    settings = SieteSettings.from_mapping({"paytable": {"real": 3, "puntaje": [1, 1]}})
    assert settings.ratio("real") == 3


def test_a_command_is_built_from_its_json_body() -> None:
    assert command_from_json("place_wager", {"box": 2, "amount": 10}) == PlaceWager(2, 10)
    assert command_from_json("request_draw", {"box": 1, "face_down": True}) == RequestDraw(1, True)
    assert command_from_json("start_round", None) == StartRound()
    assert command_from_json("record_card", {"card": None}) == RecordCard(None)


def test_every_command_type_is_known_by_name() -> None:
    assert command_from_json("cut_card", {}).type == "cut_card"
    assert len(COMMAND_TYPES) == 23


@pytest.mark.parametrize(
    ("command_type", "data", "code"),
    [
        ("shuffle_deck", {}, "unknown_command"),
        ("place_wager", {"box": 1}, "missing_field"),
        ("place_wager", {"box": "1", "amount": 10}, "invalid_field"),
        ("place_wager", {"box": True, "amount": 10}, "invalid_field"),
        ("place_wager", {"box": 1, "amount": 10.5}, "invalid_field"),
        ("place_wager", {"box": 1, "amount": 10, "colour": "red"}, "unknown_field"),
        ("request_draw", {"box": 1, "face_down": "yes"}, "invalid_field"),
        ("record_card", {"card": 7}, "invalid_field"),
        ("update_settings", {"settings": []}, "invalid_field"),
        ("stand", [1], "invalid_body"),
    ],
)
def test_malformed_json_commands_are_refused(command_type: str, data: Any, code: str) -> None:
    with pytest.raises(InvalidInputError) as refused:
        command_from_json(command_type, data)
    assert refused.value.code == code
