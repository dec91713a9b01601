"""Sets up the supervising screens' part of the browser tier's floor, on the server's database.

Run as its own process, like `floor_script.py`: `python tests/browser/supervision_script.py
people`, `... round 3`, `... report 3`, `... slip fill 7`, `... settings 3`.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

import django
import django.utils.timezone

django.setup()

from reports.models import Slip  # noqa: E402
from reports.services.storing import produce_report  # noqa: E402
from reports.shifts import floor_clock  # noqa: E402
from tables import roles  # noqa: E402
from tables.engine import siete  # noqa: E402
from tables.models import DealerAssignment, Table  # noqa: E402
from tables.services.commands import table_command  # noqa: E402
from tables.services.floor import round_open  # noqa: E402
from tests.browser.floor_script import person  # noqa: E402

PEOPLE = {
    "boss-b": roles.PIT_BOSS,
    "boss-c": roles.PIT_BOSS,
    "cash-b": roles.CASHIER,
    "audit-b": roles.AUDITOR,
}
# The round's cards: box 1's first card is face down (7 of golds), then the bank's (3 of swords).
FACE_DOWN = ("7O", "3E")


def people() -> dict[str, str]:
    return {name: person(name, role).username for name, role in PEOPLE.items()}


def start_round(table_id: int) -> dict[str, Any]:
    """A round in play at the table, dealt by its dealer from the shoe's side."""
    dealer = DealerAssignment.objects.get(table_id=table_id, ended_at__isnull=True).dealer
    round_open(table_id=table_id, actor=dealer)
    table_command(table_id=table_id, command=siete.PlaceWager(1, 20), actor=dealer, source="tablet")
    for card in FACE_DOWN:
        command = siete.RecordCard(card, source="shoe")
        table_command(table_id=table_id, command=command, actor=dealer, source="shoe")
    return {"face_down": list(FACE_DOWN)}


def opener(table_id: int) -> dict[str, Any]:
    """The table's opener for the shift, counted by its dealer and a pit boss."""
    from tables.engine.errors import RuleError
    from tables.services import custody

    dealer = DealerAssignment.objects.get(table_id=table_id, ended_at__isnull=True).dealer
    boss = person("boss-b", roles.PIT_BOSS)
    chips = {"5": 500, "25": 1000, "100": 2000}
    try:
        custody.custody_open(table_id=table_id, pit_boss=boss, chips=chips)
    except RuleError as refused:
        # The browser tier's tables already open with a confirmed count (floor_script).
        if refused.code != "second_opener":
            raise
        return {"opened": table_id}
    custody.count_confirm(table_id=table_id, dealer=dealer, closing=False)
    return {"opened": table_id}


def report(table_id: int) -> dict[str, Any]:
    """The table's shift report of the shift in progress (provisional), stored with its PDF."""
    table = Table.objects.get(pk=table_id)
    key = floor_clock().shift_of(django.utils.timezone.now())
    stored = produce_report("table_shift", key, table=table)
    return {"report": stored.pk, "gaming_day": key.gaming_day.isoformat(), "shift": key.shift}


def slip(slip_type: str, table_id: int) -> dict[str, Any]:
    row = Slip.objects.filter(slip_type=slip_type, table_id=table_id).order_by("-number").first()
    return {"number": row.number, "stage": row.stage, "voided": row.voided} if row else {}


def settings(table_id: int) -> dict[str, Any]:
    """The settings the engine plays at the table now."""
    from tables.services import engine_state

    state = engine_state.current_state(Table.objects.get(pk=table_id))
    return dict(state.settings.to_mapping())


def main(argv: list[str]) -> Any:
    command, *args = argv
    if command == "people":
        return people()
    if command == "round":
        return start_round(int(args[0]))
    if command == "opener":
        return opener(int(args[0]))
    if command == "report":
        return report(int(args[0]))
    if command == "slip":
        return slip(args[0], int(args[1]))
    if command == "settings":
        return settings(int(args[0]))
    raise SystemExit(f"unknown command {command!r}")


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:])))
