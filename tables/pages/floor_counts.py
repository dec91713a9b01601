"""A chip count typed on a screen: how many chips of each of the table's denominations."""

from __future__ import annotations

from django.http import QueryDict

from reports.denominations import table_denominations
from tables.engine.errors import InvalidInputError
from tables.models import Table

MOST_CHIPS = 100_000  # of one denomination in one count


def chips_from_form(data: QueryDict, table: Table) -> dict[str, int]:
    """`chips-25=4` is four chips of 25; the services take money per denomination."""
    amounts = {}
    for denomination in table_denominations(table):
        raw = data.get(f"chips-{denomination}", "").strip() or "0"
        if not raw.isdigit() or int(raw) > MOST_CHIPS:
            raise InvalidInputError(
                "Count the chips as whole numbers, up to 100,000 of each.", code="invalid_count"
            )
        if int(raw):
            amounts[str(denomination)] = int(raw) * denomination
    return amounts
