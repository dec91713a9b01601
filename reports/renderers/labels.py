"""The words a printed report uses for the codes its document holds, in the active language.

A document keeps stable codes (``no_closer``, ``none_raked_game``); a person reads a label. A
code without a label here (an alert kind added later, say) prints as words, never as the code.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tables import games

CODES: dict[str, Promise] = {
    # Report kinds
    "table_shift": gettext_lazy("Table shift report"),
    "floor_summary": gettext_lazy("Floor summary"),
    "cashier": gettext_lazy("Cashier (cage) report"),
    "audit": gettext_lazy("Audit report"),
    "gaming_day": gettext_lazy("Gaming day totals"),
    "month_to_date": gettext_lazy("Month to date"),
    "year_to_date": gettext_lazy("Year to date"),
    # (A game's name comes from its binding: see `label`.)
    # Why a report is provisional
    "shift_not_ended": gettext_lazy("the shift has not ended"),
    "no_closer": gettext_lazy("the table has no closer"),
    "drop_not_counted": gettext_lazy("the drop is not counted"),
    "table_provisional": gettext_lazy("table %(table)s is provisional"),
    "table_open": gettext_lazy("table %(table)s is still open"),
    "period_not_ended": gettext_lazy("the period has not ended"),
    # Figures
    "drop": gettext_lazy("Drop"),
    "drop_source": gettext_lazy("Drop source"),
    "estimated_drop": gettext_lazy("Estimated drop (buy-ins)"),
    "win": gettext_lazy("Win"),
    "hold_percent": gettext_lazy("Hold %"),
    "revenue": gettext_lazy("Revenue"),
    "house_edge_percent": gettext_lazy("House edge %"),
    "theoretical_win": gettext_lazy("Theoretical win"),
    "theoretical_basis": gettext_lazy("Theoretical win basis"),
    "actual_win": gettext_lazy("Actual win (rounds)"),
    "actual_less_theoretical": gettext_lazy("Actual less theoretical"),
    "counted": gettext_lazy("counted by the count team"),
    "estimated": gettext_lazy("estimated from the buy-ins"),
    "none_raked_game": gettext_lazy("none: a raked game has no house edge"),
    "house_edge": gettext_lazy("handle times the house edge"),
    "edge_unknown": gettext_lazy("house edge unknown"),
    "rake": gettext_lazy("Rake"),
    "fills": gettext_lazy("Fills"),
    "credits": gettext_lazy("Credits"),
    # Rounds
    "hands_played": gettext_lazy("Hands played"),
    "rounds_voided": gettext_lazy("Rounds voided"),
    "boxes_played": gettext_lazy("Boxes played"),
    "pushes": gettext_lazy("Pushes"),
    "busts": gettext_lazy("Busts"),
    "handle": gettext_lazy("Handle"),
    "payouts_total": gettext_lazy("Payouts total"),
    "breakage": gettext_lazy("Breakage"),
    "rake_total": gettext_lazy("Rake total"),
    "real": gettext_lazy("Real (2 to 1)"),
    "siete_y_medio": gettext_lazy("Siete y Medio"),  # the hand class, in the payouts by class
    "puntaje": gettext_lazy("Points (1 to 1)"),
    # Slips
    "fill": gettext_lazy("Fill"),
    "credit": gettext_lazy("Credit"),
    "requested": gettext_lazy("requested"),
    "issued": gettext_lazy("issued"),
    "received": gettext_lazy("received"),
    "confirmed": gettext_lazy("confirmed"),
    "used": gettext_lazy("used"),
    "void": gettext_lazy("VOID"),
    "voided": gettext_lazy("voided"),
    "outstanding": gettext_lazy("OUTSTANDING"),
    "missing": gettext_lazy("MISSING"),
    "not_issued": gettext_lazy("NOT ISSUED"),
    "duplicates": gettext_lazy("USED TWICE"),
    "balanced": gettext_lazy("balanced"),
    "over": gettext_lazy("over"),
    "short": gettext_lazy("short"),
    "not_entered": gettext_lazy("not entered"),
    # Audit
    "chain_breaks": gettext_lazy("Hash chain breaks"),
    "replay_differences": gettext_lazy("Replay differences"),
    "self_approved_corrections": gettext_lazy("Self-approved corrections"),
    "manual_entries_disagreeing": gettext_lazy("Manual entries disagreeing with the shoe"),
    "payout_mismatches": gettext_lazy("Payout mismatches"),
    "card_anomalies": gettext_lazy("Duplicate or unidentified cards"),
    "device_incidents": gettext_lazy("Device incidents"),
    "bank_rule_violations": gettext_lazy("Bank-rule violation attempts"),
    "agrees": gettext_lazy("agrees"),
    "differs": gettext_lazy("DIFFERS"),
    "no_shoe_read": gettext_lazy("no shoe read"),
    "overpaid": gettext_lazy("overpaid"),
    "underpaid": gettext_lazy("underpaid"),
    "round.voided": gettext_lazy("Round voided"),
    "hand.voided": gettext_lazy("Hand voided"),
    "hand.killed": gettext_lazy("Hand killed"),
    "card.voided": gettext_lazy("Card voided"),
    "card.replaced": gettext_lazy("Card replaced"),
    "card.corrected": gettext_lazy("Card corrected"),
    "payout.corrected": gettext_lazy("Payout corrected"),
    "void_round": gettext_lazy("Round voided"),
    "void_hand": gettext_lazy("Hand voided"),
    "void_box": gettext_lazy("Box voided"),
    "kill_hand": gettext_lazy("Hand killed"),
    "correct_held_card": gettext_lazy("Held card corrected"),
    "correct_payout": gettext_lazy("Payout corrected"),
    "duplicate_card": gettext_lazy("duplicate card"),
    "unknown_card": gettext_lazy("unidentified card"),
    "shoe_offline": gettext_lazy("shoe offline"),
    "shoe_misread": gettext_lazy("shoe misread"),
    "shoe_tamper": gettext_lazy("shoe tamper"),
    "shoe_card_refused": gettext_lazy("shoe card refused"),
    "shoe_gap": gettext_lazy("events lost by the shoe"),
    "bank_rule_violation": gettext_lazy("bank-rule violation"),
    "payout_mismatch": gettext_lazy("payout mismatch"),
    # Signers
    "dealer": gettext_lazy("Dealer"),
    "pit_boss": gettext_lazy("Pit boss"),
    "cage_supervisor": gettext_lazy("Cage supervisor"),
    "auditor": gettext_lazy("Auditor"),
    "shift_manager": gettext_lazy("Shift manager"),
}
# The same code names a report kind and a signer's role; the signature block asks for the role.
ROLES: dict[str, Promise] = {"cashier": gettext_lazy("Cashier")}


def label(code: Any) -> str:
    """The label of ``code``; ``table_open:T1`` style codes carry their table."""
    if code is None:
        return "-"
    text = str(code)
    name, _sep, table = text.partition(":")
    found = CODES.get(name) or _game_label(name)
    if found is None:
        return _humanised(text)
    return str(found) % {"table": table} if table else str(found)


def _game_label(code: str) -> Any:
    """A game's name as its binding gives it (None for a code no game has)."""
    binding = games.find_binding(code)
    return binding.label if binding is not None else None


def role_label(role: str) -> str:
    return str(ROLES.get(role) or CODES.get(role) or _humanised(role))


def yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def _humanised(code: str) -> str:
    words = code.replace(".", ": ").replace("_", " ").strip()
    return words[:1].upper() + words[1:]
