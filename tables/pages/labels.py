"""The words on the tablet's buttons and states, translated at the edge."""

from __future__ import annotations

from typing import Any

from django.utils.formats import localize
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

COMMAND_LABELS = {
    "start_round": gettext_lazy("Start round"),
    "start_hand": gettext_lazy("Start hand"),
    "place_wager": gettext_lazy("Wager"),
    "change_wager": gettext_lazy("Change wager"),
    "cancel_wager": gettext_lazy("Cancel wager"),
    "record_card": gettext_lazy("Deal a card"),
    "stand": gettext_lazy("Stand"),
    "reveal": gettext_lazy("Reveal card"),
    "declare_bust": gettext_lazy("Declare bust"),
    "sit_out": gettext_lazy("Sit out"),
    "reveal_bank": gettext_lazy("Reveal bank card"),
    "expose_bank_card": gettext_lazy("Expose bank card"),
    "bank_stand": gettext_lazy("Bank stands"),
    "identify_card": gettext_lazy("Enter the face-down card"),
    "record_payout": gettext_lazy("Pay"),
    "reshuffle": gettext_lazy("Reshuffle"),
    "burn": gettext_lazy("Burn a card"),
    "fold": gettext_lazy("Fold"),
    "check": gettext_lazy("Check"),
    "call": gettext_lazy("Call"),
    "bet": gettext_lazy("Bet"),
    "raise": gettext_lazy("Raise"),
    "complete": gettext_lazy("Complete"),
    "bring_in": gettext_lazy("Bring-in"),
    "show": gettext_lazy("Show"),
    "muck": gettext_lazy("Muck"),
    "award_pots": gettext_lazy("Award the pots"),
}

STATE_LABELS = {
    "dealing": gettext_lazy("dealing"),
    "playing": gettext_lazy("playing"),
    "waiting": gettext_lazy("waiting"),
    "stood": gettext_lazy("stood"),
    "bust": gettext_lazy("BUST"),
    "win": gettext_lazy("WIN"),
    "lose": gettext_lazy("LOSE"),
    "loss": gettext_lazy("LOSE"),
    "player_bust": gettext_lazy("BUST"),
    "bank_bust_win": gettext_lazy("WIN (bank bust)"),
    "push": gettext_lazy("PUSH"),
    "finished": gettext_lazy("finished"),
    "voided": gettext_lazy("voided"),
    "active": gettext_lazy("in the hand"),
    "folded": gettext_lazy("folded"),
    "all_in": gettext_lazy("all in"),
    "mucked": gettext_lazy("mucked"),
    "empty": gettext_lazy("empty"),
    "sitting_out": gettext_lazy("sitting out"),
}

PHASE_LABELS = {
    "no_round": gettext_lazy("No round"),
    "betting": gettext_lazy("Betting"),
    "dealing": gettext_lazy("Dealing"),
    "players": gettext_lazy("Players' turns"),
    "bank": gettext_lazy("Bank's turn"),
    "settling": gettext_lazy("Settling"),
    "settled": gettext_lazy("Settled"),
    "voided": gettext_lazy("Voided"),
    "idle": gettext_lazy("No hand"),
    "betting_round": gettext_lazy("Betting"),
    "showdown": gettext_lazy("Showdown"),
    "awarding": gettext_lazy("Awarding the pots"),
    "complete": gettext_lazy("Hand complete"),
}

HAND_CLASSES = {
    "real": gettext_lazy("Siete y Medio Real (2:1)"),
    "siete_y_medio": gettext_lazy("Siete y Medio (3:2)"),
    "puntaje": gettext_lazy("Puntaje (1:1)"),
}

# The showdown's hand categories (tables/engine/poker/ranking.py CATEGORIES), named for people.
HAND_CATEGORIES = {
    "high_card": gettext_lazy("high card"),
    "pair": gettext_lazy("one pair"),
    "two_pair": gettext_lazy("two pair"),
    "three_of_a_kind": gettext_lazy("three of a kind"),
    "straight": gettext_lazy("straight"),
    "flush": gettext_lazy("flush"),
    "full_house": gettext_lazy("full house"),
    "four_of_a_kind": gettext_lazy("four of a kind"),
    "straight_flush": gettext_lazy("straight flush"),
}


def word(table: dict[str, Any], key: Any) -> str:
    text = table.get(key)
    return str(text) if text is not None else str(key).replace("_", " ")


def payout_label(net: int) -> str:
    """What the dealer does with a settled box's chips: a loss is collected, a push leaves the
    stake in the box, a win is paid; a signed amount on a "Pay" button was misread at the table."""
    if net < 0:
        return _("Collect %(amount)s") % {"amount": localize(-net)}
    if net == 0:
        return _("Push: the stake stays")
    return _("Pay %(amount)s") % {"amount": localize(net)}


def command_label(command: str, entry: dict[str, Any]) -> str:
    base = word(COMMAND_LABELS, command)
    if command == "request_draw":
        base = _("Draw face down") if entry.get("face_down") else _("Draw face up")
    if command == "record_payout" and entry.get("amount") is not None:
        base = payout_label(int(entry["amount"]))
    elif entry.get("amount") and command not in ("place_wager", "change_wager", "check", "fold"):
        base = f"{base} {localize(entry['amount'])}"
    if entry.get("box") is not None:
        return _("%(action)s · box %(box)s") % {"action": base, "box": entry["box"]}
    if entry.get("seat") is not None:
        return _("%(action)s · seat %(seat)s") % {"action": base, "seat": entry["seat"]}
    return base
