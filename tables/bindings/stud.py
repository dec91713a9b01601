"""Seven-Card Stud as the services see it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tables import games
from tables.engine import stud
from tables.engine.stud import commands as stud_commands
from tables.engine.stud import state as stud_state
from tables.services.seating import project_stacks, start_hand_command

ROUND_STATUS = {
    stud_state.IDLE: games.ROUND_NONE,
    stud_state.COMPLETE: games.ROUND_SETTLED,
    stud_state.VOIDED: games.ROUND_VOIDED,
}


def parse_settings(mapping: Mapping[str, Any]) -> dict[str, Any]:
    return stud.StudSettings.from_mapping(mapping).to_mapping()


def shoe_card(state: Any, card: str, physical_id: str | None, source: str) -> Any:
    """A card is the burn when one is due before a street, else dealt to the next seat."""
    if state.phase == stud_state.DEALING and state.burn_open:
        return stud_commands.Burn(card, physical_id=physical_id, source=source)
    return stud_commands.RecordCard(card, seat=None, physical_id=physical_id, source=source)


def round_status(state: stud.StudState) -> str:
    return ROUND_STATUS.get(state.phase, games.ROUND_OPEN)


BINDING = games.GameBinding(
    key="seven_card_stud",
    engine=stud.STUD,
    parse_settings=parse_settings,
    command_from_json=stud.command_from_json,
    open_round_command=start_hand_command,
    live_view=stud.live_view,
    audit_view=stud.audit_view,
    round_status=round_status,
    round_opened_event="hand.started",
    project_table=project_stacks,
    service_commands=frozenset({"start_hand"}),
    pit_boss_commands=frozenset({"show_mucked"}),
    approval_commands=frozenset({"void_hand", "kill_hand", "correct_held_card"}),
    approval_fields=frozenset({"void_hand", "kill_hand", "correct_held_card"}),
    shoe_deck="french",
    shoe_card_command=shoe_card,
)
