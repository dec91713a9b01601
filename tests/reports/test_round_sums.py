"""PostgreSQL's per-round sums equal the Python reading of the same audit views, round by round.

The Python reading (reports/inputs/rounds.py) is the reference and what SQLite uses; on
PostgreSQL the table shift report reads the sums of reports/inputs/round_sums.py instead.
Run with DATABASE_URL=postgres://... (skipped on SQLite, which has no second reading).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from reports.demo.shift import Staff, simulate_shift, simulation_tables
from reports.inputs.round_sums import summed_rounds
from reports.inputs.rounds import round_summary, shift_rounds, shift_window
from reports.inputs.table_shift import window_of
from tables.models import Round, Table, TableEvent
from tables.services.custody.log import custody_events

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="the summing statement is PostgreSQL's"
    ),
]


def python_reading(table: Table, window: tuple[int, int]) -> list[Any]:
    return [round_summary(table.game, row) for row in shift_rounds(table, window)]


def box(number: int, outcome: str, stake: int, net: int, hand_class: str, **extra: Any) -> Any:
    return {
        "box": number,
        "outcome": outcome,
        "stake": stake,
        "net": net,
        "hand_class": hand_class,
        "breakage": "0",
        **extra,
    }


SIETE_STATES: list[tuple[str, dict[str, Any]]] = [
    (
        "closed",
        {
            "phase": "settled",
            "voided": False,
            "results": [
                box(1, "win", 50, 50, "puntaje"),
                box(2, "loss", 15, -15, "puntaje"),
                box(3, "player_bust", 95, -95, "bust"),
                box(4, "bank_bust_win", 40, 80, "real", breakage="1/2"),
                box(5, "push", 20, 0, "puntaje"),
                box(6, "win", 30, 60, "siete_y_medio", breakage="0.25"),
                box(7, "removed", 10, 0, "puntaje"),
            ],
        },
    ),
    ("closed", {"phase": "settled", "voided": True, "results": [box(1, "win", 5, 5, "real")]}),
    ("voided", {"phase": "betting", "results": [box(1, "loss", 5, -5, "puntaje")]}),
    ("closed", {"phase": "settled", "results": None}),
    ("closed", {"phase": "settled", "results": []}),
]

STUD_STATES: list[tuple[str, dict[str, Any]]] = [
    (
        "closed",
        {
            "phase": "complete",
            "seats": [{"committed": 144}, {"committed": 0}, {}, {"committed": 20}],
            "result": {
                "rake_total": 40,
                "pots": [
                    {"index": 1, "amount": 100, "rake": 10},
                    {"index": 0, "amount": 600, "rake": 30},
                ],
            },
        },
    ),
    ("closed", {"phase": "voided", "seats": [{"committed": 5}], "result": None}),
    ("closed", {"phase": "complete", "seats": [], "result": {}}),
]


def test_crafted_rounds_read_the_same_both_ways(
    dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User, cashier_carmen: User
) -> None:
    siete, stud = simulation_tables(2)
    for table, states in ((siete, SIETE_STATES), (stud, STUD_STATES)):
        for number, (status, state) in enumerate(states, start=1):
            Round.objects.create(
                table=table,
                number=number,
                status=status,
                state=state,
                last_seq=number,
                opened_at=timezone.now(),
            )
        summaries, settled = summed_rounds(table, (0, 100))
        assert summaries == python_reading(table, (0, 100))
        assert len(summaries) == len(states)
        assert settled == {}


def test_a_played_shift_reads_the_same_both_ways(
    dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User, cashier_carmen: User
) -> None:
    staff = Staff(dealer_dora, pit_boss_paula, pit_boss_pedro, cashier_carmen)
    key, _ = simulate_shift(simulation_tables(2), rounds=6, seed=11, staff=staff)
    for table in Table.objects.all():
        window = shift_window(table, key)
        assert window is not None
        assert window_of(table, custody_events(table, key)) == window
        summaries, settled = summed_rounds(table, window)
        assert summaries == python_reading(table, window)
        assert any(summary.handle for summary in summaries)
        expected = dict(
            TableEvent.objects.filter(table=table, type="round.settled").values_list(
                "round__number", "seq"
            )
        )
        numbers = [int(summary.round_id) for summary in summaries]
        assert settled == {number: expected[number] for number in numbers if number in expected}
        assert bool(settled) == (table.game == Table.Game.SIETE_Y_MEDIO)
