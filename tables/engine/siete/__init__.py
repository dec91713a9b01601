"""Siete y Medio: the pure rules engine of a six-box, house-banked Spanish-deck table.

Use :data:`SIETE` (a :class:`tables.engine.game.Game`): ``new_state(settings_mapping)``,
``decide(state, command) -> tuple[Event, ...]`` and ``evolve(state, event) -> state``.
:func:`command_from_json` builds a command from a JSON body; :func:`live_view` is the
dealer's screen (no face-down card ever) and :func:`audit_view` shows everything.

Commands (``type`` on the wire → fields):

* ``start_round`` — open the next round (a wager also opens one); shuffles when due.
* ``place_wager`` box, amount, seat? · ``change_wager`` box, amount · ``cancel_wager`` box —
  only before the first card.
* ``record_card`` card (None = a face-down card the tablet does not know), physical_id?,
  source ``tablet``/``shoe``, face_up? (True: seen dealt face up), target? (``box``, ``bank``,
  ``burn``), box? — a card that left the shoe goes to whoever is due. From the shoe, a card
  nobody asked for becomes a misdrawn card with an alert; from the tablet it is refused.
* ``request_draw`` box, face_down · ``stand`` box · ``reveal`` box, card? ·
  ``declare_bust`` box, card? · ``sit_out`` box (exposed card, ``player_option`` tables).
* ``expose_bank_card`` card? — the bank's card seen during play: after the first decision it plays
  face up; before it, ``exposed_bank_card`` applies (void: the round is held).
* ``reveal_bank`` card? · ``bank_stand`` (refused below 5; at 5 or more the bank stands by itself).
* ``identify_card`` box (None = bank), card — an unknown face-down card entered at settlement.
* ``record_payout`` box, amount — what the dealer paid (+ net win) or collected (- stake).
* ``correct_payout`` box, amount, reason, requested_by, approved_by — a wrong payout record fixed.
* ``correct_held_card`` card, requested_by, approved_by — release a duplicate read by the shoe.
* ``move_card`` from_box, to_box, requested_by, approved_by — a deal card on the wrong box is
  moved (or two are swapped) before the first player decision.
* ``void_round`` / ``void_box`` box — reason, requested_by, approved_by (two different people).
* ``reshuffle`` · ``cut_card`` · ``update_settings`` settings (between rounds or while betting).

Events (``Event.type``; data is JSON-ready): ``round.opened``, ``shoe.shuffled``,
``cut_card.drawn``, ``wager.placed``/``changed``/``cancelled``/``withdrawn``, ``betting.closed``,
``card.dealt``, ``card.burned``, ``card.dead``, ``card.misdrawn``, ``card.held``,
``card.corrected``, ``card.moved``, ``card.revealed``, ``round.held``, ``draw.requested``,
``box.stood``, ``box.bust``, ``bust.refused`` (a false declaration: the shown card is turned
up and the turn goes on, R1), ``bank.finished``, ``box.settled``, ``box.voided``, ``round.settled``,
``round.voided``, ``payout.recorded``, ``payout.corrected``, ``settings.changed`` and
``alert.raised`` (data
``code``: ``duplicate_card``, ``bank_rule_violation``, ``undeclared_bust``, ``payout_mismatch``,
``misdrawn_card``, ``wager_outside_limits``, ``bank_card_exposed``).

Refusals carry ``code``, ``message`` and ``params`` (the values the sentence uses). None names
a face-down card or a total that depends on one: a duplicate entry reads the same whichever
copy was drawn first, and a card the shoe read is turned up without an entry
(``card_already_read`` answers any entry, right or wrong). A box's face-down cards are turned
up as it is settled, so an undeclared bust is found, and shown, only then.

Totals travel in half-points (``total_halves``: 15 is 7½); amounts are integers of the
casino's money unit, whole multiples of the smallest chip; breakage is an exact decimal string.
"""

from tables.engine.siete.commands import (
    COMMAND_TYPES,
    COMMANDS,
    BankStand,
    CancelWager,
    ChangeWager,
    Command,
    CorrectHeldCard,
    CorrectPayout,
    CutCard,
    DeclareBust,
    ExposeBankCard,
    IdentifyCard,
    MoveCard,
    PlaceWager,
    RecordCard,
    RecordPayout,
    RequestDraw,
    Reshuffle,
    Reveal,
    RevealBank,
    SitOut,
    Stand,
    StartRound,
    UpdateSettings,
    VoidBox,
    VoidRound,
    command_from_json,
)
from tables.engine.siete.game import SIETE, SieteYMedio
from tables.engine.siete.settings import SettingError, SieteSettings
from tables.engine.siete.state import SieteState
from tables.engine.siete.view import audit_view, live_view

__all__ = [
    "COMMANDS",
    "COMMAND_TYPES",
    "SIETE",
    "BankStand",
    "CancelWager",
    "ChangeWager",
    "Command",
    "CorrectHeldCard",
    "CorrectPayout",
    "CutCard",
    "DeclareBust",
    "ExposeBankCard",
    "IdentifyCard",
    "MoveCard",
    "PlaceWager",
    "RecordCard",
    "RecordPayout",
    "RequestDraw",
    "Reshuffle",
    "Reveal",
    "RevealBank",
    "SettingError",
    "SieteSettings",
    "SieteState",
    "SieteYMedio",
    "SitOut",
    "Stand",
    "StartRound",
    "UpdateSettings",
    "VoidBox",
    "VoidRound",
    "audit_view",
    "command_from_json",
    "live_view",
]
