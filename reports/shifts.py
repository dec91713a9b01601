"""The floor's gaming days and shifts, from the CASINO_* settings, through the pure rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from reports import gaming_day as rules
from tables.engine.errors import InvalidInputError


@dataclass(frozen=True)
class ShiftKey:
    gaming_day: date
    shift: str

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> ShiftKey:
        return cls(date.fromisoformat(payload["gaming_day"]), payload["shift"])

    def as_payload(self) -> dict[str, str]:
        return {"gaming_day": self.gaming_day.isoformat(), "shift": self.shift}


@dataclass(frozen=True)
class FloorClock:
    tz: str
    rollover: time
    shifts: tuple[rules.ShiftStart, ...]

    def shift_of(self, instant: datetime) -> ShiftKey:
        day, name = rules.gaming_day_and_shift(
            instant, tz=self.tz, rollover=self.rollover, shifts=self.shifts
        )
        return ShiftKey(day, name)

    def bounds(self, key: ShiftKey) -> tuple[datetime, datetime]:
        return rules.shift_bounds(
            key.gaming_day, key.shift, tz=self.tz, rollover=self.rollover, shifts=self.shifts
        )

    def last_ended(self, now: datetime) -> ShiftKey:
        """The most recent shift whose end is at or before ``now``."""
        start, _ = self.bounds(self.shift_of(now))
        return self.shift_of(start - timedelta(microseconds=1))

    def shift_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.shifts)


def floor_clock() -> FloorClock:
    shifts = tuple(
        (name.strip(), _wall_time(start))
        for name, start in (item.split("=", 1) for item in settings.CASINO_SHIFTS.split(","))
    )
    clock = FloorClock(
        tz=settings.CASINO_TIME_ZONE,
        rollover=_wall_time(settings.CASINO_GAMING_DAY_ROLLOVER),
        shifts=shifts,
    )
    clock.shift_of(timezone.now())  # refuses unusable settings early, with their own code
    return clock


def parse_shift_key(gaming_day: str | date, shift: str) -> ShiftKey:
    """A gaming day and a shift name from a request, checked against the floor's shifts."""
    try:
        day = gaming_day if isinstance(gaming_day, date) else date.fromisoformat(gaming_day)
    except (TypeError, ValueError):
        raise InvalidInputError(
            f"{gaming_day!r} is not a gaming day (write it as YYYY-MM-DD).",
            code="invalid_gaming_day",
        ) from None
    if shift not in floor_clock().shift_names():
        raise InvalidInputError(f"There is no shift called {shift!r}.", code="unknown_shift")
    return ShiftKey(day, shift)


def _wall_time(text: str) -> time:
    hours, minutes = text.strip().split(":")
    return time(int(hours), int(minutes))
