"""Refusals in the reader's language: the engine's stable code and params, a sentence here.

The engine and the services keep speaking in codes (and the English `message` for logs and
old clients); screens and the API body translate at the edge with this catalogue. A code not
listed, or a sentence whose params the refusal does not carry, falls back to the message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

# Each code lists its sentences from the most specific (with params) to a plain one.
CATALOGUE: dict[str, tuple[Promise, ...]] = {
    "stake_below_minimum": (
        _("The minimum stake at this table is %(minimum)s."),
        _("The stake is below this table's minimum."),
    ),
    "stake_above_maximum": (
        _("The maximum stake at this table is %(maximum)s."),
        _("The stake is above this table's maximum."),
    ),
    "stake_not_chip_multiple": (
        _("A stake must be a multiple of the %(chip)s chip."),
        _("A stake must be a whole number of chips."),
    ),
    "invalid_box": (_("There is no box %(box)s at this table."), _("That box does not exist.")),
    "box_taken": (_("Box %(box)s already has a wager."), _("That box already has a wager.")),
    "no_wager": (_("There is no wager on that box."),),
    "wagers_closed": (_("Wagers are closed for this round."),),
    "invalid_card": (_("That is not a card of this deck."),),
    "duplicate_card": (_("That card has already been dealt in this round; check the card."),),
    "card_required": (_("Enter the card: the tablet does not know it yet."),),
    "card_mismatch": (_("That card does not match the one recorded."),),
    "card_not_due": (_("No card is due there now."),),
    "deal_not_complete": (_("The initial deal is not complete yet."),),
    "not_your_turn": (_("It is not that hand's turn."),),
    "round_in_progress": (_("A round is in progress."),),
    "round_in_play": (_("A round is already in play at this table."),),
    "round_held": (_("The round is held: call the pit boss."),),
    "round_not_settled": (_("Settle the round, or have it voided, before closing it."),),
    "no_round_in_play": (_("There is no round in play."),),
    "table_closed": (_("Open the table before starting a round."),),
    "table_not_open": (_("The table is not open."),),
    "shoe_feeds_table": (
        _("The shoe is reading this table's cards; do not enter them on the tablet."),
    ),
    "needs_approval": (_("This needs a pit boss's approval: ask for it as a correction."),),
    "approval_required": (_("This needs a pit boss's approval."),),
    "use_round_open": (_("Open the round with the Start button."),),
    "permission_denied": (_("You are not allowed to do this."),),
    "not_authenticated": (_("Sign in first."),),
    "not_found": (_("There is nothing at this address."),),
    "invalid_input": (_("Some fields are missing or invalid."),),
    "missing_field": (_("Something the command needs is missing."),),
    "invalid_field": (_("A value of the command is not valid."),),
    "invalid_amount": (_("That amount is not valid."),),
    "wrong_amount": (_("That amount is not the one due."),),
    "not_betting_now": (_("There is no betting now."),),
    "action_not_allowed": (_("That action is not allowed now."),),
    "cannot_check": (_("There is a bet to call: you cannot check."),),
    "bring_in_required": (_("The bring-in must act first."),),
    "raise_cap_reached": (_("The raises are capped on this street."),),
    "insufficient_chips": (_("The player does not have enough chips."),),
    "not_showdown": (_("There is no showdown now."),),
    "must_show": (_("This hand must be shown."),),
    "last_live_hand": (_("The last live hand cannot be mucked."),),
    "unknown_cards_at_showdown": (_("Enter the face-down cards to show the hand."),),
    "showdown_not_finished": (_("The showdown is not finished."),),
    "not_enough_players": (_("Not enough players are seated to start a hand."),),
    "hand_in_progress": (_("A hand is in progress."),),
    "idempotency_key_reused": (_("This tap was already sent with different content."),),
    "csrf_failed": (_("The form expired or came from elsewhere; reload and try again."),),
    "not_allowed_now": (_("That is not allowed now."),),
    # The pit boss's requests and decisions (a settings change, a slip's void, four eyes).
    "reason_required": (_("Say why the change is needed."),),
    "missing_reason": (_("Say why the slip is void."),),
    "invalid_setting": (
        _("%(setting)s: that value is not allowed."),
        _("A setting has a value that is not allowed."),
    ),
    "unknown_setting": (_("That is not a setting of this table."),),
    "no_settings": (_("This game's settings are fixed when the table is created."),),
    "nothing_changed": (_("Nothing was changed."),),
    "own_request": (_("You cannot decide on your own request; ask another pit boss."),),
    "request_already_decided": (_("This request was already decided."),),
    "unknown_slip": (_("There is no such slip at this table."),),
    "slip_already_voided": (_("This slip is already void."),),
    # The server's own refusals: nothing was recorded, the tap can be sent again.
    "server_error": (
        _("Something went wrong on the server; nothing was recorded. Please try again."),
    ),
    "server_busy": (_("The server is busy; nothing was recorded. Try again in a moment."),),
}


def refusal_sentence(code: str, message: str, params: Mapping[str, Any] | None = None) -> str:
    """The refusal in the active language, or the English `message` when none fits.

    In English the engine's own message is the sentence: it already names the amounts."""
    if (get_language() or "en").startswith("en"):
        return message
    for template in CATALOGUE.get(code, ()):
        try:
            return str(template) % dict(params or {})
        except (KeyError, TypeError, ValueError):
            continue  # this sentence needs a param the refusal does not carry
    return message


def sentence_for(error: Any) -> str:
    """The sentence for a RuleError (its `params`, when it carries them)."""
    return refusal_sentence(
        str(getattr(error, "code", "")),
        str(getattr(error, "message", error)),
        getattr(error, "params", None),
    )
