"""The games' commands, declared from their bindings: no game is named here.

A game's command is sent by the table's dealer or a pit boss, unless its binding says it is
the pit boss's (limits, paytable, the clock), needs a second pit boss (voids and
corrections: only a correction's approval runs it), is a card entry (the shoe's job while one
feeds the table), or is issued by the service itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cache

from tables import games, roles
from tables.policy.rules import FLOOR_STAFF, PIT_BOSS_ONLY, Rule


def game_rule(binding: games.GameBinding, name: str) -> Rule:
    summary = name.replace("_", " ").capitalize()
    common = {"name": name, "summary": summary, "at_table": True, "game": binding.key}
    if name in binding.service_commands:
        return Rule(roles=frozenset(), system_only=True, **common)  # type: ignore[arg-type]
    if name in binding.approval_commands:
        return Rule(roles=FLOOR_STAFF, second_person=roles.PIT_BOSS, while_held=True, **common)  # type: ignore[arg-type]
    who = PIT_BOSS_ONLY if name in binding.pit_boss_commands else FLOOR_STAFF
    card = name in binding.card_commands
    return Rule(roles=who, while_shoe_feeds=not card, shoe=card, **common)  # type: ignore[arg-type]


@cache
def _rules_of(game_key: str) -> dict[str, Rule]:
    binding = games.binding_for(game_key)
    return {name: game_rule(binding, name) for name in sorted(binding.command_types)}


def game_rules(game_key: str) -> dict[str, Rule]:
    """Every declared command of the game (a test-only game without a list gets none)."""
    return _rules_of(game_key)


def rule_of_game(game_key: str, name: str) -> Rule:
    """The rule of one game command; a name the game does not list (or a game that lists
    none) gets the ordinary rule, and the engine refuses a name it does not know."""
    found = _rules_of(game_key).get(name)
    if found is not None:
        return found
    binding = games.binding_for(game_key)
    if not binding.command_types:
        # A stand-in game (tests) declares no list: its commands are the shoe's as well.
        return replace(game_rule(binding, name), shoe=True)
    return game_rule(binding, name)


def settings_need_second_person(
    binding: games.GameBinding, state: object, new_settings: object
) -> list[str]:
    """The four-eyes settings (paytable, tie rule) that `new_settings` would change."""
    if not binding.four_eyes_settings or binding.settings_of is None:
        return []
    if not isinstance(new_settings, Mapping):
        return []
    current = binding.settings_of(state)
    proposed = binding.parse_settings(new_settings)
    return sorted(
        name for name in binding.four_eyes_settings if proposed.get(name) != current.get(name)
    )
