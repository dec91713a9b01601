"""A floor tile's HTML, drawn once per change and language, and pushed to the open floors.

The process that wrote a table's event draws that table's tile on commit, in every language of
the floor, and caches each drawing under a digest of the tile's data and the language: the
floor page and its tile fetches then only read the cache. The same drawings go over the
websocket to the floor pages, one group per language, so an open floor redraws the tile
without fetching it at all.

What a tile shows is the table's status, limits, dealer, round number and phase and the shift's
figures (`floor_tiles.FloorTile`): never a card, face up or down. It is the floor page's
content, so only those the page itself lets in (the pit boss) may join the tiles' groups.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Collection
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from tables import roles
from tables.live.groups import floor_tiles_group
from tables.pages import floor_tiles
from tables.policy import screens
from tables.services import live

# Who may see the floor page, its fragments and its pushed tiles: one answer for all three.
FLOOR_VIEWERS = screens.viewers("floor")
TILE_DRAWN = "tile.drawn"


def may_see_the_floor(user: Any) -> bool:
    return bool(user and user.is_authenticated and roles.has_role(user, *FLOOR_VIEWERS))


def floor_languages() -> tuple[str, ...]:
    return tuple(code for code, _name in settings.LANGUAGES)


def _key(glance: floor_tiles.TableAtGlance, language: str) -> str:
    digest = hashlib.sha256(f"{language}|{glance.stamp}".encode()).hexdigest()
    return f"floor:tile-html:{digest}"


def floor_html(table_ids: Collection[int] | None = None) -> list[SafeString]:
    """The tiles of every table (or of `table_ids`) in the current language: one query for the
    tables at a glance and one cache read for their drawings. Only a tile nobody drew since
    something it shows changed has its engine state and shift figures read, and is drawn here."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    glances = floor_tiles.at_a_glance(table_ids=table_ids)
    keys = [_key(glance, language) for glance in glances]
    found = cache.get_many(keys)
    stale = [glance for glance, key in zip(glances, keys, strict=True) if key not in found]
    drawn = {
        _key(tile_glance, language): render_to_string("floor/_tile.html", {"tile": tile})
        for tile_glance, tile in zip(stale, floor_tiles.tiles_for(stale), strict=True)
    }
    if drawn:
        cache.set_many(drawn, floor_tiles.TILE_CACHE_SECONDS)
    # Safe: every string was drawn by our own template, with its own escaping.
    return [mark_safe(found.get(key) or drawn[key]) for key in keys]


def _watchers_key(language: str) -> str:
    return f"floor:open-tiles:{language}"


async def floor_opened(language: str) -> None:
    """Counts an open floor page in its language (its socket joined the tiles' group)."""
    key = _watchers_key(language)
    await cache.aadd(key, 0, timeout=None)
    try:
        await cache.aincr(key)
    except ValueError:  # evicted between the two calls: count this floor alone
        await cache.aset(key, 1, timeout=None)
    forget_watchers_read()


async def floor_closed(language: str) -> None:
    key = _watchers_key(language)
    forget_watchers_read()
    try:
        if await cache.adecr(key) < 0:
            await cache.aset(key, 0, timeout=None)
    except ValueError:  # nothing counted (evicted): nothing to take back
        return


# How long a process keeps its reading of the open floors: a write must not pay a cache round
# trip to learn it, and a floor opened meanwhile fetches what it missed within a second.
WATCHERS_READ_SECONDS = 1.0
_watchers_read: tuple[float, list[str]] = (float("-inf"), [])


def watched_languages() -> list[str]:
    """The languages some floor page is open in, read from the cache at most once a second
    per process. A count left behind by a process that died only costs a drawing nobody
    receives; a page that missed a drawing fetches its tile, so the count is an economy,
    never a condition of correctness."""
    global _watchers_read
    read_at, languages = _watchers_read
    now = time.monotonic()
    if now - read_at < WATCHERS_READ_SECONDS:
        return languages
    keys = {language: _watchers_key(language) for language in floor_languages()}
    counts = cache.get_many(list(keys.values()))
    languages = [language for language, key in keys.items() if counts.get(key, 0) > 0]
    _watchers_read = (now, languages)
    return languages


def forget_watchers_read() -> None:
    """The next write reads the open floors afresh (a floor just opened or closed here)."""
    global _watchers_read
    _watchers_read = (float("-inf"), [])


def draw_on_commit(table_id: int) -> list[tuple[str, dict[str, Any]]]:
    """The table's tile drawn in each language a floor page is open in, cached, and the
    messages that carry it to the floors' groups (sent by the caller, before the change
    notice). With no floor open, a write draws nothing: the drawing is for the pages."""
    languages = watched_languages()
    if not languages:
        return []
    glances = floor_tiles.at_a_glance(table_ids=(table_id,))
    if not glances:
        return []
    (glance,) = glances
    # Reading the shift here fills its cache under the new head, for every process.
    (tile,) = floor_tiles.tiles_for(glances)
    drawn: dict[str, str] = {}
    messages: list[tuple[str, dict[str, Any]]] = []
    for language in languages:
        with translation.override(language):
            html = render_to_string("floor/_tile.html", {"tile": tile})
        drawn[_key(glance, language)] = html
        message = {"type": TILE_DRAWN, "table": table_id, "seq": tile.seq, "html": html}
        messages.append((floor_tiles_group(language), message))
    cache.set_many(drawn, floor_tiles.TILE_CACHE_SECONDS)
    return messages


def register() -> None:
    live.draw_for_screens(draw_on_commit)
