"""Apply one shoe reading to its bound table, through the same service the tablet uses.

The caller holds the table lock inside a transaction, so the card, the device event and any
alert commit together (and the link ACKs only after that commit). A rule refusal never escapes:
the card was drawn and the line is fine, so it is stored with its verdict and the pit alerted.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from devices import feeding
from devices.models import DeviceEvent, MisreadHold
from tables.engine.errors import RuleError
from tables.models import Table, TableEvent
from tables.services import engine_state
from tables.services.commands import table_command

Verdict = DeviceEvent.Verdict
WAITING_FOR_MISREAD = "waiting_for_misread_entry"


@dataclass(frozen=True)
class Applied:
    verdict: str
    reason: str = ""
    table_event: TableEvent | None = None
    # (kind, message, details) of the alert the pit needs, if any.
    alert: tuple[str, str, dict[str, Any]] | None = None
    opens_hold: bool = False
    hold_open: bool = True  # whether a hold may be open at the table after this reading


def table_has_open_hold(table: Table) -> bool:
    return MisreadHold.objects.filter(table=table, resolved_at__isnull=True).exists()


def apply_reading(table: Table, reading: feeding.Reading, hold_may_be_open: bool = True) -> Applied:
    """What the reading does to the table. The caller holds the table lock."""
    if reading.kind == feeding.CARD:
        if hold_may_be_open and table_has_open_hold(table):
            return Applied(Verdict.HELD, WAITING_FOR_MISREAD)
        assert reading.card is not None
        applied = apply_card(table, reading.card, reading.physical_id)
        return dataclasses.replace(applied, hold_open=applied.opens_hold)
    if reading.kind == feeding.MISREAD:
        return Applied(
            Verdict.HELD,
            "misread",
            alert=(
                "misread",
                f"The shoe could not identify card {reading.draw_index}: the dealer enters it "
                "and a pit boss approves before the shoe's next cards are dealt.",
                {"draw_index": reading.draw_index},
            ),
            opens_hold=True,
        )
    if reading.kind == feeding.CUT:
        return _apply_cut_card(table)
    return Applied(Verdict.ACCEPTED, alert=_status_alert(table, reading))


def _status_alert(table: Table, reading: feeding.Reading) -> tuple[str, str, dict[str, Any]] | None:
    """FAULT and TAMPER raised by the shoe, or a shoe loaded with the wrong kind of deck."""
    payload = reading.payload
    if reading.message_type == "FAULT" and payload.get("active"):
        details = {"fault": payload["code"], "severity": payload["severity"]}
        return ("fault", f"The shoe reports fault 0x{payload['code']:02X}.", details)
    if reading.message_type == "TAMPER" and payload.get("active"):
        details = {"tamper": payload["kind"]}
        return ("tamper", "The shoe reports its lid or enclosure opened.", details)
    expected = feeding.deck_for(table.game)
    if reading.message_type == "SHOE_LOADED" and payload.get("deck_type") != expected:
        details = {"deck_type": payload.get("deck_type")}
        return ("wrong_deck", "The shoe was loaded with a deck this game does not use.", details)
    return None


def apply_card(table: Table, card: str, physical_id: str | None) -> Applied:
    """The caller holds the table lock (`table` is the locked row)."""
    state = engine_state.current_state(table)
    try:
        command = feeding.card_command(table.game, state, card, physical_id)
    except ValueError:
        message = f"No shoe deals at a {table.game} table; the card was not applied."
        return Applied(
            Verdict.REJECTED, "game_not_dealt_by_shoe", alert=("card_refused", message, {})
        )
    try:
        outcome = table_command(
            table_id=table.pk, locked=table, command=command, actor=None, source="shoe"
        )
    except RuleError as refusal:
        return _refused(refusal)
    first = card_row(outcome.events)
    if any(row.type == "card.held" for row in outcome.events):
        # The engine itself holds the round for the pit boss (RULES 1.5).
        return Applied(Verdict.DUPLICATE, "held_by_the_round", first)
    return Applied(Verdict.ACCEPTED, "", first)


def card_row(rows: list[TableEvent]) -> TableEvent | None:
    """The log row of the card itself (a first card is preceded by `betting.closed`)."""
    return next((row for row in rows if row.type.startswith("card.")), rows[0] if rows else None)


def _refused(refusal: RuleError) -> Applied:
    if refusal.code == "duplicate_card":
        # A duplicate read holds the hand: the dealer enters the true card, a pit boss approves.
        return Applied(
            Verdict.DUPLICATE,
            refusal.code,
            alert=(
                "duplicate_card",
                "The shoe read a card already dealt in this hand: the dealer enters the true "
                "card and a pit boss approves, or the hand is voided for a fouled deck.",
                {"refusal": refusal.code},
            ),
            opens_hold=True,
        )
    return Applied(
        Verdict.REJECTED,
        refusal.code,
        alert=(
            "card_refused",
            f"A card from the shoe was not applied: {refusal.message}",
            {"refusal": refusal.code},
        ),
    )


def _apply_cut_card(table: Table) -> Applied:
    command = feeding.cut_card_command(table.game)
    if command is None:
        return Applied(Verdict.ACCEPTED, "no_cut_card_in_this_game")
    try:
        outcome = table_command(
            table_id=table.pk, locked=table, command=command, actor=None, source="shoe"
        )
    except RuleError as refusal:
        return Applied(Verdict.REJECTED, refusal.code)
    return Applied(Verdict.ACCEPTED, "", card_row(outcome.events))
