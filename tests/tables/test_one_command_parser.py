"""Both games' commands are parsed by one parser: the same bad input gets the same code."""

from __future__ import annotations

from typing import Any

import pytest

from tables import games
from tables.engine.errors import InvalidInputError

SIETE, STUD = games.binding_for("siete_y_medio"), games.binding_for("seven_card_stud")


def refusal(binding: games.GameBinding, command: str, body: Any) -> str:
    with pytest.raises(InvalidInputError) as refused:
        binding.command_from_json(command, body)
    return refused.value.code


@pytest.mark.parametrize(
    ("siete_command", "stud_command", "body", "code"),
    [
        ("stand", "muck", {"box": "three", "seat": "three"}, "unknown_field"),
        ("stand", "muck", {}, "missing_field"),
        ("stand", "muck", [], "invalid_body"),
        ("record_card", "record_card", {"card": 5}, "invalid_field"),
        ("record_card", "record_card", {"card": "As", "shuffle": True}, "unknown_field"),
        ("fly", "fly", {}, "unknown_command"),
    ],
)
def test_the_same_bad_input_gets_the_same_code_at_both_games(
    siete_command: str, stud_command: str, body: Any, code: str
) -> None:
    assert refusal(SIETE, siete_command, body) == refusal(STUD, stud_command, body) == code


def test_a_wrongly_typed_field_is_named_alike() -> None:
    siete = pytest.raises(InvalidInputError)
    with siete as at_siete:
        SIETE.command_from_json("stand", {"box": "3"})
    with pytest.raises(InvalidInputError) as at_stud:
        STUD.command_from_json("muck", {"seat": "3"})
    assert at_siete.value.code == at_stud.value.code == "invalid_field"
    assert at_siete.value.params["expected"] == at_stud.value.params["expected"]


def test_every_routed_command_is_declared_for_the_parser() -> None:
    for binding in (SIETE, STUD):
        assert set(binding.routed_commands) <= set(binding.commands) == binding.command_types
