"""A small floor for the custody and report tests: one Siete y Medio table and its people."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User

from tables.models import Table
from tables.services.floor import table_create

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
