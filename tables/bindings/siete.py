"""Siete y Medio as the services see it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tables import games
from tables.engine import siete
from tables.engine.siete import rules

# Corrections: each carries who asked and the different pit boss who approved.
APPROVED = frozenset({"void_round", "void_box", "correct_held_card", "move_card", "correct_payout"})
ROUND_STATUS = {
    rules.NO_ROUND: games.ROUND_NONE,
    rules.SETTLED: games.ROUND_SETTLED,
    rules.VOIDED: games.ROUND_VOIDED,
}


def parse_settings(mapping: Mapping[str, Any]) -> dict[str, Any]:
    return siete.SieteSettings.from_mapping(mapping).to_mapping()


def shoe_card(state: Any, card: str, physical_id: str | None, source: str) -> Any:
    """The engine routes the card to whoever is due (the tablet said which draw it is for)."""
    return siete.RecordCard(card, physical_id=physical_id, source=source)


def round_status(state: siete.SieteState) -> str:
    return ROUND_STATUS.get(rules.phase(state.round), games.ROUND_OPEN)


BINDING = games.GameBinding(
    key="siete_y_medio",
    engine=siete.SIETE,
    parse_settings=parse_settings,
    command_from_json=siete.command_from_json,
    open_round_command=lambda table: siete.StartRound(),
    live_view=siete.live_view,
    audit_view=siete.audit_view,
    round_status=round_status,
    approval_commands=APPROVED,
    approval_fields=APPROVED,
    shoe_deck="spanish",
    shoe_card_command=shoe_card,
    # Siete y Medio deals to the cut card (`shuffle: cut_card`).
    shoe_cut_card_command=siete.CutCard,
)
