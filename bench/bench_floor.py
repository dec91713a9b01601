"""The benchmark floor: tables with a dealer each (a real user with a password, signing in for
a real token), Stud tables with seated players, and optionally a long history played through
the services by the engines' simulations (tests/tables/service_play.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

PASSWORD = "bench-dealer-password"
SIETE = "siete_y_medio"
STUD = "seven_card_stud"
# The simulations' own settings (a Siete stake is 2 chips of 1), for fresh and aged tables alike.
SIETE_SETTINGS = {"min_stake": 2, "max_stake": 2, "chip": 1, "ties": "push"}
SIETE_STAKE = 2
STUD_SETTINGS = {"small_bet": 10, "rake_percent": "5", "rake_cap": 30}


@dataclass(frozen=True)
class BenchTable:
    table_id: int
    name: str
    game: str
    dealer: str
    head_seq: int


def ensure_floor(
    prefix: str,
    count: int,
    *,
    history_events: int = 0,
    first: int = 0,
    log: Callable[[str], Any] = print,
) -> list[BenchTable]:
    """`count` tables named `<prefix>-NNN` from number `first`, alternately Siete y Medio
    (even numbers) and Stud."""
    from django.contrib.auth.models import Group, User

    from tables.models import Table

    boss, _ = User.objects.get_or_create(username="bench-boss")
    boss.groups.add(Group.objects.get(name="pit_boss"))
    ready = []
    for number in range(first, first + count):
        game = SIETE if number % 2 == 0 else STUD
        name = f"{prefix}-{number:03d}"
        table = Table.objects.filter(name=name).first() or _new_table(name, game, boss)
        dealer = _dealer_for(table, boss)
        # Open first: nothing is played at a closed table, the seeded history neither.
        if table.status != Table.Status.OPEN:
            _open_for_the_shift(table, dealer, boss)
        if table.head_seq < history_events:
            _play_history(table, boss, history_events, seed=number)
            table.refresh_from_db()
            log(f"{name}: {table.head_seq} events")
        if game == STUD:
            _seat_players(table, boss)
        table.refresh_from_db()
        ready.append(BenchTable(table.pk, name, game, dealer, table.head_seq))
    return ready


def _new_table(name: str, game: str, boss: Any) -> Any:
    from tables.services.floor import table_create

    settings = SIETE_SETTINGS if game == SIETE else STUD_SETTINGS
    seats = 6 if game == SIETE else 8
    return table_create(name=name, game=game, seat_count=seats, settings=settings, actor=boss)


def _open_for_the_shift(table: Any, dealer: str, boss: Any) -> None:
    """As on the floor: the pit boss counts the tray, the table's dealer confirms (it opens)."""
    from django.contrib.auth.models import User

    from tests.reports.custody_floor import OPENING_CHIPS, open_books

    open_books(
        table.pk, dealer=User.objects.get(username=dealer), pit_boss=boss, chips=OPENING_CHIPS
    )
    table.refresh_from_db()


def _play_history(table: Any, boss: Any, events: int, seed: int) -> None:
    from tests.tables.service_play import play_siete, play_stud

    while table.head_seq < events:
        if table.game == SIETE:
            play_siete(table, boss, rounds=50, seed=seed * 1000 + table.head_seq)
        else:
            play_stud(table, boss, hands=30, seed=seed * 1000 + table.head_seq)
        table.refresh_from_db()


def _dealer_for(table: Any, boss: Any) -> str:
    from django.contrib.auth.models import Group, User

    from tables.models import DealerAssignment
    from tables.services.floor import dealer_assign

    username = f"bench-dealer-{table.name}"
    dealer = User.objects.filter(username=username).first()
    if dealer is None:
        dealer = User.objects.create_user(username, password=PASSWORD)
        dealer.groups.add(Group.objects.get(name="dealer"))
    if not DealerAssignment.objects.filter(
        table=table, dealer=dealer, ended_at__isnull=True
    ).exists():
        dealer_assign(table_id=table.pk, dealer=dealer, by=boss)
    return username


def _seat_players(table: Any, boss: Any) -> None:
    from tables.models import Seat
    from tables.services import seating

    for seat in Seat.objects.filter(table=table, number__lte=6).order_by("number"):
        if seat.player_label:
            if seat.stack < 5_000:
                seating.chips_add(table_id=table.pk, seat=seat.number, amount=50_000, actor=boss)
            continue
        seating.player_seat(
            table_id=table.pk, seat=seat.number, player=f"p{seat.number}", buy_in=100_000,
            actor=boss,
        )  # fmt: skip
