"""The tablet's own clock: the tap's time from `X-Tablet-Time`, stored as `occurred_at`.

A tap queued through a Wi-Fi drop reaches the server late, so the log keeps both times: the
tablet's (when the dealer tapped) as the event's `occurred_at`, the server's as `recorded_at`.
The tablet also sends its clock at the moment of sending (`X-Tablet-Clock`): that one should
match the server's now, and when it is off by more than CASINO_TABLET_CLOCK_TOLERANCE_SECONDS
the pit is alerted, because a wrong tablet clock misdates every fact it reports.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from rest_framework.request import Request

from tables import selectors
from tables.api.access import acting_user
from tables.services.alerts import tablet_clock_alert

TAP_HEADER = "X-Tablet-Time"
CLOCK_HEADER = "X-Tablet-Clock"


def _aware(raw: str | None) -> datetime | None:
    if not raw:
        return None
    try:
        parsed = parse_datetime(raw.strip())
    except ValueError:
        return None
    if parsed is None or timezone.is_naive(parsed):
        return None
    return parsed


def clock_offset_seconds(request: Request, now: datetime) -> float | None:
    """How far the tablet's clock is from the server's, when it said what time it is."""
    clock = _aware(request.headers.get(CLOCK_HEADER))
    return None if clock is None else (clock - now).total_seconds()


def tablet_times(request: Request) -> tuple[datetime | None, float | None]:
    """The tap's time on the tablet (None without the header) and, when the tablet's clock is
    off the server's by more than the tolerance, by how many seconds (None when it is not)."""
    tapped_at = _aware(request.headers.get(TAP_HEADER))
    if tapped_at is None:
        return None, None
    now = timezone.now()
    offset = clock_offset_seconds(request, now)
    if offset is None:
        offset = max((tapped_at - now).total_seconds(), 0.0)  # a tap cannot come from the future
    if abs(offset) > settings.CASINO_TABLET_CLOCK_TOLERANCE_SECONDS:
        return tapped_at, offset
    return tapped_at, None


def checked_tablet_time(request: Request, table_id: int) -> datetime | None:
    """The tap's time on the tablet (None without the header); alerts on a skewed clock.

    The table is read only for that rare alert (a 404 when it does not exist), recorded on
    its own: otherwise the command's own lock is the request's one read of the table."""
    tapped_at, skew = tablet_times(request)
    if skew is not None:
        table = selectors.table_get(table_id)
        tablet_clock_alert(table_id=table.pk, by=acting_user(request), offset_seconds=skew)
    return tapped_at
