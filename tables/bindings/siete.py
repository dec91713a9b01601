"""Siete y Medio as the services see it."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext_lazy

from tables import games
from tables.bindings import siete_summary
from tables.engine import siete
from tables.engine.siete import cards as siete_cards
from tables.engine.siete import rules
from tables.engine.siete.codec import SIETE_STATE_CODEC
from tables.engine.siete.house_edge import house_edge, unit_variance
from tables.engine.siete.settings import TIE_RULES

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


def unit_risk(mapping: Mapping[str, Any]) -> tuple[Fraction, Fraction]:
    settings = siete.SieteSettings.from_mapping(mapping)
    return house_edge(settings), unit_variance(settings)


# The 40-card Spanish deck, as the tablet's picker shows it.
SPANISH_SUITS = tuple(
    (suit, name, tuple(card for card in siete_cards.DECK if card.endswith(suit)))
    for suit, name in siete_cards.SUIT_NAMES.items()
)

BINDING = games.GameBinding(
    key="siete_y_medio",
    engine=siete.SIETE,
    parse_settings=parse_settings,
    command_from_json=siete.command_from_json,
    open_round_command=lambda table: siete.StartRound(),
    live_view=siete.live_view,
    audit_view=siete.audit_view,
    round_status=round_status,
    card_suits=SPANISH_SUITS,
    state_codec=SIETE_STATE_CODEC,
    approval_commands=APPROVED,
    approval_fields=APPROVED,
    correction_fields=(
        ("void_box", ("box", "reason")),
        ("correct_payout", ("box", "amount", "reason")),
        ("move_card", ("from_box", "to_box")),
        ("correct_held_card", ("card",)),
        ("void_round", ("reason",)),
    ),
    command_types=frozenset(siete.COMMANDS),
    commands=siete.COMMANDS,
    route_prefix="siete",
    # Limits and paytable are the pit boss's (ARCHITECTURE 8); a paytable or tie-rule change
    # also needs a second pit boss.
    pit_boss_commands=frozenset({"update_settings"}),
    # The shoe deals the cards and finds the cut card; the tablet does neither while it feeds.
    card_commands=frozenset({"record_card", "burn", "cut_card"}),
    settings_command="update_settings",
    four_eyes_settings=frozenset({"paytable", "ties"}),
    settings_of=lambda state: state.settings.to_mapping(),
    setting_choices={"ties": TIE_RULES},
    unit_risk=unit_risk,
    limit_keys=("min_stake", "max_stake"),
    report_figures=(
        "drop",
        "drop_source",
        "estimated_drop",
        "win",
        "hold_percent",
        "house_edge_percent",
        "theoretical_win",
        "actual_win",
        "actual_less_theoretical",
    ),
    report_round_rows=(
        "hands_played",
        "rounds_voided",
        "boxes_played",
        "pushes",
        "busts",
        "handle",
        "payouts_by_class",
        "payouts_total",
        "breakage",
    ),
    shoe_deck="spanish",
    shoe_card_command=shoe_card,
    # Siete y Medio deals to the cut card (`shuffle: cut_card`).
    shoe_cut_card_command=siete.CutCard,
    label=gettext_lazy("Siete y Medio"),
    round_summary=siete_summary.round_summary,
    summary_keys=siete_summary.SUMMARY_KEYS,
    summed_rounds=siete_summary.summed_rounds,
    payout_classes=siete_summary.PAYOUT_CLASSES,
)
