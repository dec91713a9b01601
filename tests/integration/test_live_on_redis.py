"""The notice queue on the Redis channel layer: only groups with a member are sent to."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tables.live.listened import group_members
from tests.live_listener import GroupListener


def test_only_the_groups_a_page_listens_to_count_as_listened() -> None:
    layer = get_channel_layer()
    listener = GroupListener("table.7101")
    try:
        asked = ["table.7101", "table.7102", "floor.tiles.xx"]
        assert set(async_to_sync(group_members)(layer, asked)) == {"table.7101"}
    finally:
        listener.leave()
    assert async_to_sync(group_members)(layer, asked) == {}
