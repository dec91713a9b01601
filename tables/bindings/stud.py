"""Seven-Card Stud as the services see it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy

from tables import games
from tables.bindings import stud_summary
from tables.engine import stud
from tables.engine.poker import cards as poker_cards
from tables.engine.stud import commands as stud_commands
from tables.engine.stud import state as stud_state
from tables.engine.stud.codec import STUD_STATE_CODEC
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


# The 52-card French deck, as the tablet's picker shows it.
FRENCH_SUITS = tuple(
    (suit, symbol, tuple(rank + suit for rank in poker_cards.RANK_CHARS))
    for suit, symbol in (("s", "♠"), ("h", "♥"), ("d", "♦"), ("c", "♣"))
)


def legal_entries(view: dict[str, Any]) -> list[dict[str, Any]]:
    """What the rules take now, read from what the live view says is due."""
    phase = view.get("phase")
    if phase in stud_state.FINISHED_PHASES:
        return [{"type": "start_hand"}]
    if view.get("held"):
        return []
    due = view.get("card_due")
    if due is not None:
        entries = [{"type": "record_card", "seat": due.get("seat"), "face": due.get("face")}]
        return entries + ([{"type": "burn"}] if due.get("burn_allowed") else [])
    to_act = view.get("to_act")
    if to_act is not None:
        return [
            {"type": option["action"], "seat": to_act, "amount": option.get("amount")}
            for option in view.get("legal_actions") or []
        ]
    if view.get("next_to_show") is not None:
        seat = view["next_to_show"]
        muck = [] if seat in (view.get("must_show") or []) else [{"type": "muck", "seat": seat}]
        return [{"type": "show", "seat": seat}, *muck]
    if view.get("result") is None:
        return [{"type": "award_pots"}]
    return []


BINDING = games.GameBinding(
    key="seven_card_stud",
    engine=stud.STUD,
    parse_settings=parse_settings,
    command_from_json=stud.command_from_json,
    open_round_command=start_hand_command,
    live_view=stud.live_view,
    audit_view=stud.audit_view,
    round_status=round_status,
    state_codec=STUD_STATE_CODEC,
    round_opened_event="hand.started",
    legal_entries=legal_entries,
    card_suits=FRENCH_SUITS,
    project_table=project_stacks,
    service_commands=frozenset({"start_hand"}),
    # The clock is the pit boss's call, like showing a mucked hand to the table.
    pit_boss_commands=frozenset({"show_mucked", "clock_expired"}),
    approval_commands=frozenset({"void_hand", "kill_hand", "correct_held_card"}),
    approval_fields=frozenset({"void_hand", "kill_hand", "correct_held_card"}),
    correction_fields=(
        ("kill_hand", ("seat", "reason")),
        ("correct_held_card", ("card",)),
        ("void_hand", ("reason",)),
    ),
    command_types=frozenset(stud_commands.COMMANDS),
    commands=stud_commands.COMMANDS,
    route_prefix="stud",
    # A hand is voided, a hand killed or a held card corrected only through the corrections.
    desk_commands=frozenset({"void_hand", "kill_hand", "correct_held_card"}),
    limit_keys=("small_bet", "big_bet", "ante"),
    report_figures=("drop", "drop_source", "estimated_drop", "revenue", "theoretical_basis"),
    report_round_rows=("hands_played", "rounds_voided", "handle", "rake_by_pot", "rake_total"),
    shoe_deck="french",
    shoe_card_command=shoe_card,
    label=gettext_lazy("Seven-Card Stud"),
    round_summary=stud_summary.round_summary,
    summary_keys=stud_summary.SUMMARY_KEYS,
    summed_rounds=stud_summary.summed_rounds,
)
