"""The gaming day and the shift an instant belongs to, in the casino's own time zone.

A gaming day ``D`` runs from the rollover time on the calendar date ``D`` to the rollover time on
``D + 1``, local wall-clock time. Shifts split it at their local start times; the first shift
starts at the rollover.

Every boundary is turned into a UTC instant by one rule, the *first instant at which the wall
clock reads that time or later*:

* a boundary in the hour the clocks skip (spring forward) starts at the moment of the jump, so
  the shift before it is one hour shorter;
* a boundary in the hour the clocks repeat (fall back) starts at its first occurrence, so the
  shift holding the repeated hour is one hour longer.

The rule never reorders boundaries: two boundaries inside one skipped hour both fall on the jump,
and the shift between them is empty for that day (it holds no instant). Mapping an instant is
done against these same UTC boundaries, so :func:`gaming_day_and_shift` and
:func:`shift_bounds` always agree.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from tables.engine.errors import InvalidInputError

ShiftStart = tuple[str, time]

_DAY = timedelta(days=1)


class GamingDaySettingsError(InvalidInputError):
    code = "invalid_gaming_day_settings"


def gaming_day_and_shift(
    instant_utc: datetime,
    *,
    tz: str,
    rollover: time,
    shifts: Sequence[ShiftStart],
) -> tuple[date, str]:
    """The gaming day and the name of the shift that ``instant_utc`` belongs to."""
    zone = _zone(tz)
    ordered = _ordered_shifts(rollover, shifts)
    instant = _aware_utc(instant_utc)
    local_date = instant.astimezone(zone).date()
    for gaming_day in (local_date, local_date - _DAY):
        boundaries = _shift_boundaries(gaming_day, zone, rollover, ordered)
        if boundaries[0][1] <= instant < boundaries[-1][1]:
            return gaming_day, _shift_holding(instant, boundaries)
    raise AssertionError("every instant falls in its local date's gaming day or the one before")


def shift_bounds(
    gaming_day: date,
    shift_name: str,
    *,
    tz: str,
    rollover: time,
    shifts: Sequence[ShiftStart],
) -> tuple[datetime, datetime]:
    """The UTC instants ``[start, end)`` of one shift of one gaming day."""
    zone = _zone(tz)
    ordered = _ordered_shifts(rollover, shifts)
    boundaries = _shift_boundaries(gaming_day, zone, rollover, ordered)
    for (name, start), (_, end) in itertools.pairwise(boundaries):
        if name == shift_name:
            return start, end
    raise InvalidInputError(f"There is no shift called {shift_name!r}.", code="unknown_shift")


def gaming_day_bounds(gaming_day: date, *, tz: str, rollover: time) -> tuple[datetime, datetime]:
    """The UTC instants ``[start, end)`` of a whole gaming day (23, 24 or 25 hours long)."""
    zone = _zone(tz)
    return (
        local_time_to_utc(gaming_day, rollover, zone),
        local_time_to_utc(gaming_day + _DAY, rollover, zone),
    )


def local_time_to_utc(day: date, wall_time: time, zone: ZoneInfo) -> datetime:
    """The first UTC instant at which the wall clock in ``zone`` reads ``wall_time`` or later."""
    naive = datetime.combine(day, wall_time.replace(tzinfo=None, fold=0))
    first_reading = naive.replace(tzinfo=zone, fold=0).astimezone(UTC)
    if first_reading.astimezone(zone).replace(tzinfo=None) == naive:
        return first_reading
    return _end_of_gap(naive, zone)


def _end_of_gap(naive: datetime, zone: ZoneInfo) -> datetime:
    """The instant the clocks jumped over ``naive``: the first second whose wall time is later."""
    readings = [naive.replace(tzinfo=zone, fold=fold).timestamp() for fold in (0, 1)]
    low, high = math.floor(min(readings)), math.ceil(max(readings))
    # Bisect on whole seconds: zoneinfo offers no transition table, and transitions fall on seconds.
    while high - low > 1:
        middle = (low + high) // 2
        if _wall_time_at(middle, zone) >= naive:
            high = middle
        else:
            low = middle
    return datetime.fromtimestamp(high, UTC)


def _wall_time_at(epoch_seconds: int, zone: ZoneInfo) -> datetime:
    return datetime.fromtimestamp(epoch_seconds, zone).replace(tzinfo=None)


def _shift_boundaries(
    gaming_day: date, zone: ZoneInfo, rollover: time, ordered: Sequence[ShiftStart]
) -> list[tuple[str, datetime]]:
    """Each shift's start in UTC, then the next gaming day's start under the name ``""``."""
    boundaries = []
    for name, start in ordered:
        day = gaming_day if start >= rollover else gaming_day + _DAY
        boundaries.append((name, local_time_to_utc(day, start, zone)))
    boundaries.append(("", local_time_to_utc(gaming_day + _DAY, rollover, zone)))
    return boundaries


def _shift_holding(instant: datetime, boundaries: Sequence[tuple[str, datetime]]) -> str:
    holding = boundaries[0][0]
    for name, start in boundaries[:-1]:
        if start <= instant:
            holding = name
    return holding


def _ordered_shifts(rollover: time, shifts: Sequence[ShiftStart]) -> list[ShiftStart]:
    """Shifts in gaming-day order; the first must start at the rollover."""
    if rollover.tzinfo is not None:
        raise GamingDaySettingsError("The rollover is a local wall-clock time, without a zone.")
    names = [name for name, _ in shifts]
    if not shifts or len(set(names)) != len(names) or "" in names:
        raise GamingDaySettingsError(
            "Shifts need at least one entry and distinct, non-empty names."
        )
    if any(start.tzinfo is not None for _, start in shifts):
        raise GamingDaySettingsError(
            "Shift start times are local wall-clock times, without a zone."
        )
    ordered = sorted(shifts, key=lambda shift: _offset_from_rollover(rollover, shift[1]))
    starts = [_offset_from_rollover(rollover, start) for _, start in ordered]
    if starts[0] != timedelta(0) or len(set(starts)) != len(starts):
        raise GamingDaySettingsError(
            "One shift must start at the gaming-day rollover and no two shifts at the same time."
        )
    return ordered


def _offset_from_rollover(rollover: time, start: time) -> timedelta:
    moment = datetime.combine(date.min, start) - datetime.combine(date.min, rollover)
    return moment % _DAY


def _aware_utc(instant: datetime) -> datetime:
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise InvalidInputError(
            "A time without a time zone cannot be placed in a gaming day; send it in UTC.",
            code="naive_datetime",
        )
    return instant.astimezone(UTC)


def _zone(tz: str) -> ZoneInfo:
    try:
        return ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError) as missing:
        raise GamingDaySettingsError(f"Unknown time zone {tz!r}.") from missing
