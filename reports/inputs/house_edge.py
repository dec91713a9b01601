"""The house edge behind a table shift's theoretical win, from the settings each round met.

A Siete y Medio table's settings may change between rounds (`settings.changed` on its log), so
each round counts at the edge of the settings in force when it was settled. The shift's edge is
the handle-weighted mean of those edges: handle x that edge is then exactly the sum of every
round's handle x its own edge. A game the house only rakes (its binding has no `unit_risk`)
banks no hand, so it has no edge.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

from reports.figures import RoundSummary
from tables.games import binding_for
from tables.models import Table, TableEvent

SETTINGS_CHANGED = "settings.changed"
ROUND_SETTLED = "round.settled"

SettingsChanges = list[tuple[int, Mapping[str, Any]]]


def shift_house_edge(
    table: Table,
    rounds: Sequence[RoundSummary],
    settled_seqs: Mapping[int, int] | None = None,
) -> Fraction | None:
    """The exact edge of the shift's play at a house-banked table; None for a raked game.

    ``settled_seqs`` (round number to the seq of its `round.settled`) is read here unless the
    caller read it with the rounds."""
    if binding_for(table.game).unit_risk is None:
        return None
    handles = round_handles(table, rounds, settled_seqs)
    return weighted_edge(table.settings, settings_changes(table), handles, game=table.game)


def round_handles(
    table: Table, rounds: Sequence[RoundSummary], settled_seqs: Mapping[int, int] | None
) -> list[tuple[int, int | None]]:
    """(handle, seq of its settlement) of every played round (a voided one has no handle)."""
    played = {int(summary.round_id): summary.handle for summary in rounds if summary.handle}
    if settled_seqs is None:
        settled_seqs = dict(
            TableEvent.objects.filter(table=table, type=ROUND_SETTLED, round__number__in=played)
            .values_list("round__number", "seq")
            .order_by()
        )
    return [(handle, settled_seqs.get(number)) for number, handle in played.items()]


def settings_changes(table: Table) -> SettingsChanges:
    return list(
        TableEvent.objects.filter(table=table, type=SETTINGS_CHANGED)
        .order_by("seq")
        .values_list("seq", "payload__settings")
    )


def handles_by_version(
    initial: Mapping[str, Any],
    changes: Sequence[tuple[int, Mapping[str, Any]]],
    handles: Iterable[tuple[int, int | None]],
) -> list[tuple[Mapping[str, Any], list[int]]]:
    """Each settings version, in log order, with the handles of the rounds settled under it.

    A round without a known settlement counts at the latest settings."""
    versions = [initial, *(settings for _, settings in changes)]
    change_seqs = [seq for seq, _ in changes]
    grouped: list[list[int]] = [[] for _ in versions]
    for handle, seq in handles:
        version = len(versions) - 1 if seq is None else bisect_right(change_seqs, seq)
        grouped[version].append(handle)
    return list(zip(versions, grouped, strict=True))


def weighted_edge(
    initial: Mapping[str, Any],
    changes: Sequence[tuple[int, Mapping[str, Any]]],
    handles: Iterable[tuple[int, int | None]],
    *,
    game: str,
) -> Fraction:
    """The handle-weighted edge of rounds given as (handle, seq of their settlement).

    `initial` is the table's settings when it was created; `changes` the later settings, by seq.
    With no handle at all the latest settings' edge is the answer, so an idle table still shows
    its edge.
    """
    grouped = [
        (settings, sum(amounts))
        for settings, amounts in handles_by_version(initial, changes, handles)
    ]
    total = sum(handle for _, handle in grouped)
    if not total:
        return unit_risk(game, grouped[-1][0])[0]
    weighted = sum(
        (handle * unit_risk(game, settings)[0] for settings, handle in grouped if handle),
        Fraction(0),
    )
    return weighted / total


def unit_risk(game: str, mapping: Mapping[str, Any]) -> tuple[Fraction, Fraction]:
    """The edge and variance of one unit staked at a house-banked game under these settings."""
    return _risk_of_settings(game, json.dumps(mapping, sort_keys=True))


@lru_cache(maxsize=256)
def _risk_of_settings(game: str, settings: str) -> tuple[Fraction, Fraction]:
    """Cached by the settings' JSON: a floor's tables share a few settings, and each figure is a
    few milliseconds of exact arithmetic. Invalid settings raise on every call (an exception is
    not cached); so does a game the house does not bank."""
    risk = binding_for(game).unit_risk
    if risk is None:
        raise ValueError(f"the house banks no hand at {game!r}: it has no edge")
    return risk(json.loads(settings))
