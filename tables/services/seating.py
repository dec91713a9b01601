"""Players at a poker table: sit down with a buy-in, add chips, leave; stacks between hands.

Seating facts are table-level service facts on the log (`table.player_seated`,
`table.chips_added`, `table.player_left`); the stacks a hand starts with come from the
Seat rows, which the hand's own result (the engine's final stacks) brings up to date.
Chips bought at a seat are cash in the drop box: each buy-in is also the shift's custody
buy-in, admitted by the same ledger (so none is taken at a table without an opener).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Case, F, Value, When

from tables import policy
from tables.engine.errors import InvalidInputError, NotAllowedNowError
from tables.models import Round, Seat, Table, TableEvent
from tables.services import custody
from tables.services.append import NewFact
from tables.services.commands import (
    current_round,
    lock_table,
    record,
)

TABLET = TableEvent.Source.TABLET
HAND_ENDS = frozenset({"pots.awarded", "hand.voided"})


def hand_in_play(table: Table) -> bool:
    """A hand still being played; a settled hand's stacks are already final."""
    round_ = current_round(table)
    return round_ is not None and round_.status == Round.Status.OPEN


def _seat(table: Table, number: int) -> Seat:
    seat = Seat.objects.select_for_update().filter(table=table, number=number).first()
    if seat is None:
        raise InvalidInputError(f"This table has no seat {number}.", code="unknown_seat")
    return seat


def _chips(table: Table, amount: int) -> int:
    chip = int(table.settings.get("chip", 1))
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0 or amount % chip:
        raise InvalidInputError(
            f"The amount must be a positive whole number of {chip}-chips.", code="invalid_amount"
        )
    return amount


def player_seat(*, table_id: int, seat: int, player: str, buy_in: int, actor: User) -> Seat:
    """Seat a player with their first chips (a buy-in at the table). Locks the table."""
    with transaction.atomic():
        table = lock_table(table_id)
        policy.check(actor, "seat.sit", table)
        place = _seat(table, seat)
        if place.player_label:
            raise NotAllowedNowError(f"Seat {seat} is taken.", code="seat_taken")
        if not player.strip():
            raise InvalidInputError(
                "Name the player (a label or card number).", code="invalid_player"
            )
        if Seat.objects.filter(table=table, player_label=player).exists():
            raise NotAllowedNowError(f"{player} is already seated here.", code="already_seated")
        amount = _chips(table, buy_in)
        custody.buy_in_admit(table, amount, actor, TABLET)
        # The seat's row is the projection of the fact (tables.services.projections).
        fact = NewFact(
            "table.player_seated",
            {"seat": seat, "player": player, "buy_in": amount, "pending": hand_in_play(table)},
        )
        record(table, None, [fact], actor, TABLET, None, None)
        place.refresh_from_db()
        return place


def chips_add(*, table_id: int, seat: int, amount: int, actor: User) -> Seat:
    """More chips for a seated player; during a hand they play from the next one."""
    with transaction.atomic():
        table = lock_table(table_id)
        policy.check(actor, "seat.add_chips", table)
        place = _seat(table, seat)
        if not place.player_label:
            raise NotAllowedNowError(f"Nobody sits at seat {seat}.", code="seat_empty")
        amount = _chips(table, amount)
        custody.buy_in_admit(table, amount, actor, TABLET)
        fact = NewFact(
            "table.chips_added",
            {
                "seat": seat,
                "player": place.player_label,
                "amount": amount,
                "pending": hand_in_play(table),
            },
        )
        record(table, None, [fact], actor, TABLET, None, None)
        place.refresh_from_db()
        return place


def player_leave(*, table_id: int, seat: int, actor: User) -> dict[str, Any]:
    """The player leaves between hands with their stack (cashed out at the cage)."""
    with transaction.atomic():
        table = lock_table(table_id)
        policy.check(actor, "seat.leave", table)
        if hand_in_play(table):
            raise NotAllowedNowError("Wait for the hand to end.", code="hand_in_progress")
        place = _seat(table, seat)
        if not place.player_label:
            raise NotAllowedNowError(f"Nobody sits at seat {seat}.", code="seat_empty")
        left = {"seat": seat, "player": place.player_label, "stack": place.stack}
        record(table, None, [NewFact("table.player_left", left)], actor, TABLET, None, None)
        return left


def start_hand_command(table: Table) -> Any:
    """The Stud StartHand for every seated player's stack (the caller holds the table lock)."""
    from tables.engine.stud.commands import SeatEntry, StartHand

    seats = Seat.objects.filter(table=table).exclude(player_label="").order_by("number")
    return StartHand(tuple(SeatEntry(s.number, s.player_label, int(s.stack)) for s in seats))


def project_stacks(table: Table, state: Any, rows: Sequence[TableEvent]) -> None:
    """After a hand ends: the engine's final stacks plus chips bought during the hand."""
    if not any(row.type in HAND_ENDS for row in rows):
        return
    final = {seat_state.seat: seat_state.stack for seat_state in state.seats}
    if not final:
        return
    # One statement for the hand's seats, where a locked read and a write per seat were sixteen
    # round trips at a full table of eight, the dearest part of a hand's end. The pending
    # chips are read by the update itself, under its row locks.
    final_stack = Case(
        *(When(number=number, then=Value(stack)) for number, stack in final.items()),
        output_field=Seat._meta.get_field("stack"),
    )
    Seat.objects.filter(table=table, number__in=final).update(
        stack=final_stack + F("pending_chips"), pending_chips=0
    )
