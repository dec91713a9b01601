"""The floor page's cost does not grow with the floor: the tables at a glance are one query,
and a tile nobody changed is read from the drawing cache, not rebuilt from its log."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables import roles
from tables.models import DealerAssignment, Table
from tables.pages import floor_tiles
from tables.services import custody
from tables.services.floor import dealer_assign, round_open, table_create
from tests.conftest import make_user
from tests.pages.supervision_floor import SIETE_SETTINGS
from tests.reports.custody_floor import OPENING_CHIPS

pytestmark = pytest.mark.django_db
TILE_ID = re.compile(r'<article id="tile-(\d+)"')


def tables_in_play(count: int, pit_boss: User, first: int) -> list[Table]:
    """`count` Siete y Medio tables, each open with a dealer of its own and a round in play."""
    made = []
    for index in range(first, first + count):
        dealer = make_user(f"dealer-{index:03d}", roles.DEALER)
        table = table_create(
            name=f"Q-{index:03d}", game="siete_y_medio", seat_count=6, settings=SIETE_SETTINGS
        )
        dealer_assign(table_id=table.pk, dealer=dealer, by=pit_boss)
        custody.custody_open(table_id=table.pk, pit_boss=pit_boss, chips=OPENING_CHIPS)
        custody.count_confirm(table_id=table.pk, dealer=dealer, closing=False)
        round_open(table_id=table.pk, actor=dealer)
        made.append(table)
    return made


def floor_queries(client: Client) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        answer = client.get("/floor/")
    assert answer.status_code == 200
    return len(queries), answer.content.decode()


def test_the_floor_page_costs_the_same_queries_at_two_and_at_seven_tables(
    pit_boss_paula: User,
) -> None:
    cache.clear()
    client = Client()
    client.force_login(pit_boss_paula)
    tables_in_play(2, pit_boss_paula, first=1)
    client.get("/floor/")  # draws every tile once
    at_two, page = floor_queries(client)
    assert len(TILE_ID.findall(page)) == 2
    tables_in_play(5, pit_boss_paula, first=3)
    cold, _ = floor_queries(client)
    at_seven, page = floor_queries(client)
    assert len(TILE_ID.findall(page)) == 7
    assert at_seven == at_two
    # The five new tiles had to be drawn from their logs: that is what the cache saves.
    assert cold > at_seven


def test_the_tables_at_a_glance_are_one_query(pit_boss_paula: User) -> None:
    tables_in_play(4, pit_boss_paula, first=1)
    with CaptureQueriesContext(connection) as queries:
        glances = floor_tiles.at_a_glance()
    assert len(queries) == 1
    assert [glance.dealer for glance in glances] == [f"dealer-{n:03d}" for n in range(1, 5)]
    assert [glance.hands_this_hour for glance in glances] == [1] * 4


def test_a_change_outside_the_log_is_not_hidden_by_the_drawing_cache(
    pit_boss_paula: User,
) -> None:
    """The dealer's assignment ending is a row, not an event of the table's log: the drawing
    cached under the table's head must not outlive it."""
    (table,) = tables_in_play(1, pit_boss_paula, first=1)
    client = Client()
    client.force_login(pit_boss_paula)
    assert "dealer-001" in client.get("/floor/").content.decode()
    DealerAssignment.objects.filter(table=table).update(ended_at=timezone.now())
    assert "dealer-001" not in client.get("/floor/").content.decode()
