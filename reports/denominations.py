"""The chip denominations a table uses, in the casino's money unit."""

from __future__ import annotations

from django.conf import settings

from tables.models import Table

# The house's chip set; a table uses those that are whole multiples of its smallest chip.
DEFAULT_DENOMINATIONS = (1, 5, 25, 100, 500, 1000)


def table_denominations(table: Table) -> tuple[int, ...]:
    house = getattr(settings, "CASINO_CHIP_DENOMINATIONS", DEFAULT_DENOMINATIONS)
    smallest = int(table.settings.get("chip", 1) or 1)
    return tuple(value for value in sorted(house) if value % smallest == 0)
