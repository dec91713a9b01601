"""Whole shifts played and audited on two tables of their own, one of each game, at shifts
fixed in the past: what the audit's read tests play, whatever the wall clock, the shift the
floor is in when they run, or the tables other tests left."""

from __future__ import annotations

from datetime import UTC, datetime

from reports.demo.shift import SIETE_SETTINGS, STUD_SETTINGS, Staff, simulate_shift
from reports.inputs.audit import table_findings
from reports.shifts import ShiftKey, floor_clock
from tables.models import Table
from tables.services.floor import table_create

# A fixed instant: the shifts played end before it, and no test run's clock moves them.
REFERENCE = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)


def shift_keys(count: int) -> list[ShiftKey]:
    """The last `count` shifts ended at REFERENCE, oldest first (the log's seqs rise with
    their dates)."""
    clock = floor_clock()
    keys = [clock.last_ended(REFERENCE)]
    while len(keys) < count:
        keys.insert(0, clock.last_ended(clock.bounds(keys[0])[0]))
    return keys


def history_tables(prefix: str) -> list[Table]:
    """Two new tables, Siete y Medio then Stud, with nothing on their logs but their creation."""
    return [
        table_create(
            name=f"{prefix}-Siete", game=Table.Game.SIETE_Y_MEDIO, seat_count=6,
            settings=SIETE_SETTINGS,
        ),
        table_create(
            name=f"{prefix}-Stud", game=Table.Game.SEVEN_CARD_STUD, seat_count=8,
            settings=STUD_SETTINGS,
        ),
    ]  # fmt: skip


def play_audited_shifts(
    tables: list[Table], keys: list[ShiftKey], *, rounds: int, staff: Staff
) -> None:
    """Each shift of `keys` played on `tables`, each followed by its audit (which leaves the
    checkpoint at the shift's end that the next one starts from)."""
    for number, key in enumerate(keys):
        simulate_shift(tables, rounds=rounds, seed=number, staff=staff, key=key, run_reports=False)
        for table in tables:
            table.refresh_from_db()
            assert table_findings(table, key).chain[0].verified
