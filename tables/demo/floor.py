"""The demo floor: two Siete y Medio and two Seven-Card Stud tables, open, with a dealer each
and players in the seats, so that a round can start at every table."""

from __future__ import annotations

from django.contrib.auth.models import User

from tables.models import DealerAssignment, Table
from tables.services.floor import dealer_assign, table_create, table_set_status
from tables.services.seating import player_seat

SIETE_SETTINGS = {"min_stake": 10, "max_stake": 500, "chip": 5}
STUD_SETTINGS = {"small_bet": 20, "chip": 1, "rake_percent": "5", "rake_cap": 30}
DEMO_TABLES = (
    ("SyM-1", Table.Game.SIETE_Y_MEDIO, 6, SIETE_SETTINGS, "dealer1"),
    ("SyM-2", Table.Game.SIETE_Y_MEDIO, 6, SIETE_SETTINGS, "dealer2"),
    ("Stud-1", Table.Game.SEVEN_CARD_STUD, 8, STUD_SETTINGS, "dealer3"),
    ("Stud-2", Table.Game.SEVEN_CARD_STUD, 8, STUD_SETTINGS, "dealer4"),
)
DEMO_PLAYERS = ("Ana", "Bruno", "Carmen", "Diego", "Elena")
PLAYER_BUY_IN = 400


def ensure_demo_tables() -> list[Table]:
    """Create what is missing; a table that exists is left as it is."""
    pit_boss = User.objects.get(username="pitboss1")
    tables = []
    for name, game, seats, settings, dealer_name in DEMO_TABLES:
        table = Table.objects.filter(name=name).first()
        if table is None:
            table = table_create(
                name=name, game=game, seat_count=seats, settings=settings, actor=pit_boss
            )
            table_set_status(table_id=table.pk, status=Table.Status.OPEN, actor=pit_boss)
        if (
            dealer_name
            and not DealerAssignment.objects.filter(
                table=table, dealer__username=dealer_name, ended_at__isnull=True
            ).exists()
        ):
            dealer = User.objects.get(username=dealer_name)
            dealer_assign(table_id=table.pk, dealer=dealer, by=pit_boss)
        tables.append(table)
    return tables


def ensure_demo_players() -> None:
    """Seat the demo players at every demo table whose seats are empty (a Stud hand starts
    from the seated players' stacks; a Siete y Medio box is bet from a seat)."""
    pit_boss = User.objects.get(username="pitboss1")
    for name, *_ in DEMO_TABLES:
        table = Table.objects.get(name=name)
        if table.seats.exclude(player_label="").exists():
            continue
        for number, player in enumerate(DEMO_PLAYERS, start=1):
            player_seat(
                table_id=table.pk, seat=number, player=player, buy_in=PLAYER_BUY_IN, actor=pit_boss
            )
