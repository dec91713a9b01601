"""A small floor for the custody and report tests: one Siete y Medio table and its people."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from reports.shifts import ShiftKey, floor_clock
from tables.models import Table, TableEvent
from tables.services import custody
from tables.services.custody import slips
from tables.services.floor import dealer_assign, is_current_dealer, table_create

OPENING_CHIPS = {"5": 100, "25": 40, "100": 10}  # 500 + 1000 + 1000 = 2500


@dataclass
class Floor:
    table: Table
    dealer: User
    pit_boss: User
    other_pit_boss: User
    cashier: User

    def refresh(self) -> Table:
        self.table.refresh_from_db()
        return self.table


def make_siete_table(name: str = "SyM-T") -> Table:
    return table_create(
        name=name,
        game=Table.Game.SIETE_Y_MEDIO,
        seat_count=6,
        settings={"min_stake": 10, "max_stake": 500, "chip": 5},
    )


def open_books(
    table_id: int,
    *,
    dealer: User,
    pit_boss: User,
    chips: dict[str, int] | None = None,
    carry_over: bool = False,
    occurred_at: datetime | None = None,
) -> TableEvent:
    """The pit boss counts the tray (or carries the closer over), the dealer confirms: the
    table's opener. Puts the dealer on the table first if he is not there."""
    table = Table.objects.get(pk=table_id)
    if not is_current_dealer(dealer, table):
        dealer_assign(table_id=table_id, dealer=dealer, by=pit_boss)
    custody.custody_open(
        table_id=table_id,
        pit_boss=pit_boss,
        chips=chips,
        carry_over=carry_over,
        occurred_at=occurred_at,
    )
    return custody.count_confirm(
        table_id=table_id, dealer=dealer, closing=False, occurred_at=occurred_at
    )


def close_books(
    table_id: int,
    *,
    dealer: User,
    pit_boss: User,
    chips: dict[str, int],
    occurred_at: datetime | None = None,
) -> TableEvent:
    """The pit boss counts the tray left, the table's dealer confirms: the closer."""
    custody.custody_close(
        table_id=table_id, pit_boss=pit_boss, chips=chips, occurred_at=occurred_at
    )
    return custody.count_confirm(
        table_id=table_id, dealer=dealer, closing=True, occurred_at=occurred_at
    )


def past_shift(floor: Floor) -> ShiftKey:
    """Open, fill, close and count the table in the last shift that ended."""
    clock = floor_clock()
    key = clock.last_ended(timezone.now())
    start, _ = clock.bounds(key)
    moment = start + timedelta(minutes=30)
    table = floor.table.pk
    open_books(
        table,
        dealer=floor.dealer,
        pit_boss=floor.pit_boss,
        chips=OPENING_CHIPS,
        occurred_at=moment,
    )
    custody.buy_in_record(table_id=table, amount=400, actor=floor.dealer, occurred_at=moment)
    slip_through(floor, "fill", {"100": 500}, occurred_at=moment)
    close_books(
        table,
        dealer=floor.dealer,
        pit_boss=floor.pit_boss,
        chips={"5": 100, "25": 40, "100": 12},
        occurred_at=moment,
    )
    custody.drop_count(table_id=table, amount=450, counted_by=floor.cashier)
    return key


def slip_through(
    floor: Floor, slip_type: str, amounts: dict[str, Any], *, occurred_at: datetime | None = None
) -> TableEvent:
    """A slip's three steps: the pit requests, the cashier signs at the cage, the dealer
    confirms at the table. Returns the confirmation."""
    number = slips.slip_request(
        slip_type=slip_type,
        table_id=floor.table.pk,
        amounts=amounts,
        pit_boss=floor.pit_boss,
        occurred_at=occurred_at,
    ).payload["slip_number"]
    slips.slip_cage_sign(slip_type=slip_type, slip_number=number, cashier=floor.cashier)
    return slips.slip_confirm(
        slip_type=slip_type, slip_number=number, dealer=floor.dealer, occurred_at=occurred_at
    )
