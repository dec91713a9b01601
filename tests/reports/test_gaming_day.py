from datetime import UTC, date, datetime, time, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reports.gaming_day import (
    gaming_day_and_shift,
    gaming_day_bounds,
    shift_bounds,
)
from tables.engine.errors import InvalidInputError

Shifts = tuple[tuple[str, time], ...]

MADRID = "Europe/Madrid"
SIX = time(6, 0)
THREE_SHIFTS: Shifts = (("day", time(6, 0)), ("swing", time(14, 0)), ("night", time(22, 0)))
# A fourth shift whose start falls in the hour Madrid skips in March and repeats in October.
FOUR_SHIFTS: Shifts = (*THREE_SHIFTS, ("graveyard", time(2, 30)))

# Europe/Madrid in 2026: clocks go 02:00 CET -> 03:00 CEST on 29 March (01:00 UTC)
# and 03:00 CEST -> 02:00 CET on 25 October (01:00 UTC).


def utc(
    year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0
) -> datetime:
    return datetime(year, month, day, hour, minute, second, tzinfo=UTC)


def place(instant: datetime, shifts: Shifts = THREE_SHIFTS) -> tuple[date, str]:
    return gaming_day_and_shift(instant, tz=MADRID, rollover=SIX, shifts=shifts)


def bounds(day: date, name: str, shifts: Shifts = THREE_SHIFTS) -> tuple[datetime, datetime]:
    return shift_bounds(day, name, tz=MADRID, rollover=SIX, shifts=shifts)


def test_an_ordinary_winter_afternoon_is_the_swing_shift_of_that_day() -> None:
    assert place(utc(2026, 1, 15, 15, 0)) == (date(2026, 1, 15), "swing")


def test_an_instant_before_the_rollover_belongs_to_the_previous_gaming_day() -> None:
    # 05:59 CET on 16 January is still the night shift of the 15th.
    assert place(utc(2026, 1, 16, 4, 59)) == (date(2026, 1, 15), "night")
    assert place(utc(2026, 1, 16, 5, 0)) == (date(2026, 1, 16), "day")


def test_the_spring_forward_gaming_day_lasts_twenty_three_hours() -> None:
    start, end = gaming_day_bounds(date(2026, 3, 28), tz=MADRID, rollover=SIX)
    assert start == utc(2026, 3, 28, 5, 0)  # 06:00 CET
    assert end == utc(2026, 3, 29, 4, 0)  # 06:00 CEST
    assert end - start == timedelta(hours=23)


def test_the_fall_back_gaming_day_lasts_twenty_five_hours() -> None:
    start, end = gaming_day_bounds(date(2026, 10, 24), tz=MADRID, rollover=SIX)
    assert start == utc(2026, 10, 24, 4, 0)  # 06:00 CEST
    assert end == utc(2026, 10, 25, 5, 0)  # 06:00 CET
    assert end - start == timedelta(hours=25)


def test_the_night_shift_absorbs_the_extra_and_the_missing_hour() -> None:
    assert bounds(date(2026, 10, 24), "night") == (utc(2026, 10, 24, 20), utc(2026, 10, 25, 5))
    assert bounds(date(2026, 3, 28), "night") == (utc(2026, 3, 28, 21), utc(2026, 3, 29, 4))


def test_both_passes_through_the_repeated_hour_map_to_the_same_night_shift() -> None:
    first_two_thirty = utc(2026, 10, 25, 0, 30)  # 02:30 CEST
    second_two_thirty = utc(2026, 10, 25, 1, 30)  # 02:30 CET, one hour later
    assert place(first_two_thirty) == (date(2026, 10, 24), "night")
    assert place(second_two_thirty) == (date(2026, 10, 24), "night")


def test_a_shift_starting_in_the_skipped_hour_starts_when_the_clocks_jump() -> None:
    graveyard = bounds(date(2026, 3, 28), "graveyard", FOUR_SHIFTS)
    night = bounds(date(2026, 3, 28), "night", FOUR_SHIFTS)
    assert graveyard == (utc(2026, 3, 29, 1, 0), utc(2026, 3, 29, 4, 0))
    assert night == (utc(2026, 3, 28, 21, 0), utc(2026, 3, 29, 1, 0))
    assert place(utc(2026, 3, 29, 0, 59, 59), FOUR_SHIFTS) == (date(2026, 3, 28), "night")
    assert place(utc(2026, 3, 29, 1, 0), FOUR_SHIFTS) == (date(2026, 3, 28), "graveyard")


def test_a_shift_starting_in_the_repeated_hour_starts_at_its_first_occurrence() -> None:
    graveyard = bounds(date(2026, 10, 24), "graveyard", FOUR_SHIFTS)
    assert graveyard == (utc(2026, 10, 25, 0, 30), utc(2026, 10, 25, 5, 0))
    assert graveyard[1] - graveyard[0] == timedelta(hours=4, minutes=30)
    # 02:15 CET on the second pass reads earlier than 02:30 but comes after the shift began.
    assert place(utc(2026, 10, 25, 1, 15), FOUR_SHIFTS) == (date(2026, 10, 24), "graveyard")


def test_a_rollover_in_the_skipped_hour_starts_the_gaming_day_at_the_jump() -> None:
    start, end = gaming_day_bounds(date(2026, 3, 29), tz=MADRID, rollover=time(2, 30))
    assert start == utc(2026, 3, 29, 1, 0)
    assert end == utc(2026, 3, 30, 0, 30)


def test_two_shift_starts_inside_one_skipped_hour_leave_an_empty_shift() -> None:
    shifts = (("main", time(6, 0)), ("early", time(2, 15)), ("late", time(2, 45)))
    early = bounds(date(2026, 3, 28), "early", shifts)
    assert early == (utc(2026, 3, 29, 1, 0), utc(2026, 3, 29, 1, 0))
    assert place(utc(2026, 3, 29, 1, 0), shifts) == (date(2026, 3, 28), "late")


def test_an_aware_instant_in_another_zone_is_placed_by_its_utc_moment() -> None:
    new_york_evening = datetime(2026, 1, 15, 10, 0, tzinfo=timezone(timedelta(hours=-5)))
    assert place(new_york_evening) == (date(2026, 1, 15), "swing")


def test_a_naive_instant_is_refused() -> None:
    with pytest.raises(InvalidInputError) as refused:
        place(datetime(2026, 1, 15, 15, 0))
    assert refused.value.code == "naive_datetime"


@pytest.mark.parametrize(
    ("tz", "shifts"),
    [
        ("Mars/Olympus_Mons", THREE_SHIFTS),
        (MADRID, ()),
        (MADRID, (("day", time(7, 0)), ("night", time(19, 0)))),
        (MADRID, (("day", time(6, 0)), ("day", time(18, 0)))),
        (MADRID, (("day", time(6, 0)), ("night", time(6, 0)))),
    ],
)
def test_unusable_gaming_day_settings_are_refused(tz: str, shifts: Shifts) -> None:
    with pytest.raises(InvalidInputError) as refused:
        gaming_day_and_shift(utc(2026, 1, 1, 12), tz=tz, rollover=SIX, shifts=shifts)
    assert refused.value.code == "invalid_gaming_day_settings"


def test_an_unknown_shift_name_is_refused() -> None:
    with pytest.raises(InvalidInputError) as refused:
        bounds(date(2026, 1, 1), "brunch")
    assert refused.value.code == "unknown_shift"


def test_the_shifts_of_every_gaming_day_of_the_year_tile_it_exactly() -> None:
    for offset in range(365):
        day = date(2026, 1, 1) + timedelta(days=offset)
        day_start, day_end = gaming_day_bounds(day, tz=MADRID, rollover=SIX)
        assert day_end - day_start in {timedelta(hours=hours) for hours in (23, 24, 25)}
        cursor = day_start
        for name in ("day", "swing", "night", "graveyard"):
            start, end = bounds(day, name, FOUR_SHIFTS)
            assert start == cursor
            cursor = end
        assert cursor == day_end


@settings(max_examples=300, deadline=None)
@given(
    st.datetimes(min_value=datetime(2025, 1, 1), max_value=datetime(2028, 12, 31)).map(
        lambda moment: moment.replace(tzinfo=UTC)
    )
)
def test_every_instant_lies_inside_the_bounds_of_the_shift_it_maps_to(instant: datetime) -> None:
    day, name = place(instant, FOUR_SHIFTS)
    start, end = bounds(day, name, FOUR_SHIFTS)
    assert start <= instant < end


# Zones whose clocks change at midnight (Santiago, Havana), by half an hour (Lord Howe), or never
# (Tokyo): the boundary rule must hold for all of them, a rollover at the skipped midnight included.
ODD_ZONES = ("America/Santiago", "America/Havana", "Australia/Lord_Howe", "Asia/Tokyo")


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(ODD_ZONES),
    st.sampled_from((time(0, 0), time(0, 30), time(6, 0))),
    st.datetimes(min_value=datetime(2025, 1, 1), max_value=datetime(2027, 12, 31)).map(
        lambda moment: moment.replace(tzinfo=UTC)
    ),
)
def test_every_zone_and_rollover_places_instants_inside_their_shift(
    tz: str, rollover: time, instant: datetime
) -> None:
    evening = time((rollover.hour + 16) % 24, rollover.minute)
    shifts = (("early", rollover), ("late", evening))
    day, name = gaming_day_and_shift(instant, tz=tz, rollover=rollover, shifts=shifts)
    start, end = shift_bounds(day, name, tz=tz, rollover=rollover, shifts=shifts)
    assert start <= instant < end
    day_start, day_end = gaming_day_bounds(day, tz=tz, rollover=rollover)
    assert day_start <= start < end <= day_end
    assert timedelta(hours=22) < day_end - day_start < timedelta(hours=26)


def test_a_rollover_at_a_skipped_midnight_starts_the_day_when_the_clocks_jump() -> None:
    # Santiago moved from UTC-4 to UTC-3 at 00:00 local on 7 September 2025: 00:00 never happened.
    start, _ = gaming_day_bounds(date(2025, 9, 7), tz="America/Santiago", rollover=time(0, 0))
    assert start == utc(2025, 9, 7, 4, 0)  # 01:00 local, the first wall time after the jump
