"""The audit report finds what happened at the table: typed cards and wrong payouts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from reports.services.storing import produce_report
from reports.shifts import floor_clock
from tables.engine.siete import commands as siete
from tables.services.commands import table_command
from tables.services.floor import round_open
from tests.reports.custody_floor import OPENING_CHIPS, Floor, close_books, open_books

pytestmark = pytest.mark.django_db


def test_a_typed_card_and_a_wrong_payout_are_findings(floor: Floor) -> None:
    clock = floor_clock()
    key = clock.last_ended(timezone.now())
    moment = clock.bounds(key)[0] + timedelta(minutes=5)
    table = floor.table.pk
    open_books(
        table,
        dealer=floor.dealer,
        pit_boss=floor.pit_boss,
        chips=OPENING_CHIPS,
        occurred_at=moment,
    )

    def do(command: object, source: str = "tablet") -> None:
        table_command(table_id=table, command=command, actor=floor.dealer, source=source)

    round_open(table_id=table, actor=floor.dealer)
    do(siete.PlaceWager(1, 20))
    do(siete.RecordCard("7O", source="tablet"))  # typed by the dealer: a manual entry
    do(siete.RecordCard("4C", source="shoe"), "shoe")
    do(siete.Stand(1))
    do(siete.RevealBank())
    do(siete.RecordCard("1B", source="shoe"), "shoe")
    do(siete.RecordPayout(1, 40))  # the rules pay 20 (7 against 5), the dealer paid 40
    close_books(table, dealer=floor.dealer, pit_boss=floor.pit_boss, chips=OPENING_CHIPS)
    audit = produce_report("audit", key).document
    assert [(row["manual_card"], row["status"]) for row in audit["manual_entries"]] == [
        ("7O", "no_shoe_read")
    ]
    assert [
        (row["computed"], row["paid"], row["direction"]) for row in audit["payout_mismatches"]
    ] == [(20, 40, "overpaid")]
    assert audit["alerts_by_kind"]["payout_mismatch"] == 1
    assert not audit["clean"]
