"""The floor's tiles drawn by the writer on commit: cached for the pages' fetches, fetched
together after several notices, and pushed to the pit bosses only, with no hidden card."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test import Client

from casino.asgi import application
from tables.live import groups as live_groups
from tables.live import publisher
from tables.models import Table
from tables.pages import floor_drawing, floor_tiles
from tables.services import custody, live
from tables.services.floor import table_create
from tests.pages.supervision_floor import (
    SIETE_SETTINGS,
    LiveFloor,
    heard_until_quiet,
    live_floor,
    start_a_round_with_a_face_down_card,
)

pytestmark = pytest.mark.django_db
HIDDEN_CARD = "7O"
TILE_ID = re.compile(r'<article id="tile-(\d+)"')


@pytest.fixture
def floor(
    dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User, cashier_carmen: User
) -> LiveFloor:
    return live_floor(dealer_dora, pit_boss_paula, pit_boss_pedro, cashier_carmen)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def tile_keys(table: Table) -> dict[str, str]:
    """Where each language's drawing of the table's tile, as it is now, is cached."""
    table.refresh_from_db()
    (glance,) = floor_tiles.at_a_glance(table_ids=(table.pk,))
    return {language: floor_drawing._key(glance, language) for language in ("es", "pt-br", "en")}


@pytest.fixture(autouse=True)
def no_floor_open() -> None:
    """Each test starts with no floor page counted open (the cache outlives a test)."""
    cache.delete_many([floor_drawing._watchers_key(lang) for lang in ("es", "pt-br", "en")])
    floor_drawing.forget_watchers_read()


def open_floors(*languages: str) -> None:
    for language in languages:
        async_to_sync(floor_drawing.floor_opened)(language)


def test_the_writer_fills_the_tile_cache_on_commit_and_the_fetch_only_reads_it(
    floor: LiveFloor, django_capture_on_commit_callbacks: Any
) -> None:
    open_floors("es", "pt-br", "en")
    with django_capture_on_commit_callbacks(execute=False) as after_commit:
        custody.buy_in_record(table_id=floor.table.pk, amount=100, actor=floor.dealer)
    keys = tile_keys(floor.table)
    cache.delete_many(list(keys.values()))
    assert cache.get_many(list(keys.values())) == {}
    for callback in after_commit:
        callback()
    drawn = cache.get_many(list(keys.values()))
    assert set(drawn) == set(keys.values())
    assert f'data-tile-seq="{floor.table.head_seq}"' in drawn[keys["en"]]
    assert "Manos en esta hora" in drawn[keys["es"]]
    assert "Mãos nesta hora" in drawn[keys["pt-br"]]
    # The page's fetch answers the writer's drawing itself, in the page's language.
    fetched = signed_in(floor.pit_boss).get(
        f"/floor/tiles/?tables={floor.table.pk}", HTTP_ACCEPT_LANGUAGE="es"
    )
    assert fetched.content.decode() == drawn[keys["es"]]


def test_with_no_floor_open_a_write_draws_nothing_and_a_closed_floor_stops_the_drawing(
    floor: LiveFloor, django_capture_on_commit_callbacks: Any
) -> None:
    assert floor_drawing.draw_on_commit(floor.table.pk) == []
    open_floors("en")
    assert [group for group, _ in floor_drawing.draw_on_commit(floor.table.pk)] == [
        live_groups.floor_tiles_group("en")
    ]
    async_to_sync(floor_drawing.floor_closed)("en")
    assert floor_drawing.draw_on_commit(floor.table.pk) == []


def test_a_coalesced_fetch_returns_exactly_the_tiles_asked(floor: LiveFloor) -> None:
    third = table_create(
        name="SyM-2", game=Table.Game.SIETE_Y_MEDIO, seat_count=6, settings=SIETE_SETTINGS
    )
    client = signed_in(floor.pit_boss)
    asked = client.get(f"/floor/tiles/?tables={floor.table.pk},{third.pk}")
    assert asked.status_code == 200
    assert sorted(map(int, TILE_ID.findall(asked.content.decode()))) == sorted(
        [floor.table.pk, third.pk]
    )
    assert f'id="tile-{floor.stud.pk}"' not in asked.content.decode()
    # What is not a table's number is left out; nothing asked, nothing answered; never a 500.
    odd = client.get(f"/floor/tiles/?tables=x,,-3,{floor.stud.pk},99999999,1e9")
    assert odd.status_code == 200
    assert TILE_ID.findall(odd.content.decode()) == [str(floor.stud.pk)]
    assert client.get("/floor/tiles/?tables=").content == b""
    # Without `tables` the whole grid, as before.
    grid = client.get("/floor/tiles/").content.decode()
    assert len(TILE_ID.findall(grid)) == 3
    assert signed_in(floor.dealer).get(f"/floor/tiles/?tables={floor.table.pk}").status_code == 403


async def _floor_socket(user: User, language: str) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(
        application, f"/ws/floor/?tiles={language}", headers=[(b"origin", b"http://127.0.0.1")]
    )
    communicator.scope["user"] = user
    connected, _code = await communicator.connect()
    assert connected
    return communicator


# Transactional on PostgreSQL: the consumers' database calls close a connection held in a
# test's atomic block there (SQLite's in-memory test database is never closed, and a flush
# there would leave content types under new ids for the serialized shoe tests).
@pytest.mark.django_db(transaction=connection.vendor == "postgresql")
def test_a_pushed_tile_goes_to_pit_bosses_in_their_language_and_shows_no_hidden_card(
    floor: LiveFloor, django_capture_on_commit_callbacks: Any
) -> None:
    def write(play: Callable[[], object]) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            play()

    async def scenario() -> tuple[list[dict[str, Any]], ...]:
        boss_es = await _floor_socket(floor.pit_boss, "es")
        boss_en = await _floor_socket(floor.other_pit_boss, "en")
        # A cashier may hear the floor's notices (the cage listens) but not see its tiles.
        cashier = await _floor_socket(floor.cashier, "es")
        await sync_to_async(write)(lambda: start_a_round_with_a_face_down_card(floor))
        heard = tuple([await heard_until_quiet(socket) for socket in (boss_es, boss_en, cashier)])
        for socket in (boss_es, boss_en, cashier):
            await socket.disconnect()
        return heard

    # The floor's own writes' notices, queued before any page opened (no drawing for them),
    # go out first: a page that joined meanwhile would hear one with no tile before it.
    assert publisher.wait_until_sent(timeout=5)
    heard_es, heard_en, heard_cashier = async_to_sync(scenario)()
    floor.refresh()
    tiles_es = [m for m in heard_es if m["type"] == "tile.drawn"]
    tiles_en = [m for m in heard_en if m["type"] == "tile.drawn"]
    assert tiles_es
    assert len(tiles_es) == len(tiles_en)
    assert all(m["table"] == floor.table.pk for m in tiles_es)
    assert tiles_es[-1]["seq"] == floor.table.head_seq
    assert 'data-status="in_round"' in tiles_es[-1]["html"]
    assert "Manos en esta hora" in tiles_es[-1]["html"]
    assert "Hands this hour" in tiles_en[-1]["html"]
    # Each change's drawing comes just before its notice.
    assert [m["type"] for m in heard_es] == ["tile.drawn", "table.changed"] * len(tiles_es)
    assert {m["type"] for m in heard_cashier} == {"table.changed"}
    for message in (*heard_es, *heard_en, *heard_cashier):
        assert HIDDEN_CARD not in str(message)


def test_a_socket_that_names_no_floor_language_gets_only_notices(floor: LiveFloor) -> None:
    async def scenario() -> set[str]:
        socket = await _floor_socket(floor.pit_boss, "xx")
        await sync_to_async(lambda: live.publish(floor.table.pk, {"seq": floor.table.head_seq}))()
        heard = await heard_until_quiet(socket)
        await socket.disconnect()
        return {m["type"] for m in heard}

    assert async_to_sync(scenario)() == {"table.changed"}
