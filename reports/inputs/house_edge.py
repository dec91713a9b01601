"""The house edge behind a table shift's theoretical win, from the settings each round met.

A Siete y Medio table's settings may change between rounds (`settings.changed` on its log), so
each round counts at the edge of the settings in force when it was settled. The shift's edge is
the handle-weighted mean of those edges: handle x that edge is then exactly the sum of every
round's handle x its own edge. Stud rakes and banks no hand, so it has no edge.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

from reports.figures import RoundSummary
from tables.engine.siete.house_edge import house_edge
from tables.engine.siete.settings import SieteSettings
from tables.models import Table, TableEvent

SETTINGS_CHANGED = "settings.changed"
ROUND_SETTLED = "round.settled"


def shift_house_edge(
    table: Table,
    rounds: Sequence[RoundSummary],
    settled_seqs: Mapping[int, int] | None = None,
) -> Fraction | None:
    """The exact edge of the shift's play at a house-banked table; None for a raked game.

    ``settled_seqs`` (round number to the seq of its `round.settled`) is read here unless the
    caller read it with the rounds."""
    if table.game != Table.Game.SIETE_Y_MEDIO:
        return None
    played = {int(summary.round_id): summary.handle for summary in rounds if summary.handle}
    if settled_seqs is None:
        settled_seqs = dict(
            TableEvent.objects.filter(table=table, type=ROUND_SETTLED, round__number__in=played)
            .values_list("round__number", "seq")
            .order_by()
        )
    changes = list(
        TableEvent.objects.filter(table=table, type=SETTINGS_CHANGED)
        .order_by("seq")
        .values_list("seq", "payload__settings")
    )
    handles = [(handle, settled_seqs.get(number)) for number, handle in played.items()]
    return weighted_edge(table.settings, changes, handles)


def weighted_edge(
    initial: Mapping[str, Any],
    changes: Sequence[tuple[int, Mapping[str, Any]]],
    handles: Iterable[tuple[int, int | None]],
) -> Fraction:
    """The handle-weighted edge of rounds given as (handle, seq of their settlement).

    `initial` is the table's settings when it was created; `changes` the later settings, by seq.
    A round without a known settlement counts at the latest settings; with no handle at all the
    latest settings' edge is the answer, so an idle table still shows its edge.
    """
    versions = [initial, *(settings for _, settings in changes)]
    change_seqs = [seq for seq, _ in changes]
    handle_by_version = [0] * len(versions)
    for handle, seq in handles:
        version = len(versions) - 1 if seq is None else bisect_right(change_seqs, seq)
        handle_by_version[version] += handle
    total = sum(handle_by_version)
    if not total:
        return _edge(versions[-1])
    weighted = sum(
        (
            handle * _edge(versions[index])
            for index, handle in enumerate(handle_by_version)
            if handle
        ),
        Fraction(0),
    )
    return weighted / total


def _edge(mapping: Mapping[str, Any]) -> Fraction:
    return _edge_of_settings(json.dumps(mapping, sort_keys=True))


@lru_cache(maxsize=256)
def _edge_of_settings(settings: str) -> Fraction:
    """Cached by the settings' JSON: a floor's tables share a few settings, and each edge is a
    few milliseconds of exact arithmetic. Invalid settings raise on every call (an exception is
    not cached)."""
    return house_edge(SieteSettings.from_mapping(json.loads(settings)))
