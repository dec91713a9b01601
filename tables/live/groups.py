"""Channel-layer group names, shared by the publisher and the consumers."""

from __future__ import annotations

FLOOR_GROUP = "floor"


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


def floor_tiles_group(language: str) -> str:
    """The floor pages drawn in `language`: they hear each changed tile already drawn."""
    return f"floor.tiles.{language}"
