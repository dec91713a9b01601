"""The alerts as they arrive, for the floor's feed.

An alert's message may name a card (a duplicate read names the card read twice, and the first
read may lie face down in a box), so while the alert's round is in play the feed shows the
alert's kind only; the message follows once the round is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User

from tables.models import Alert, Round
from tables.services.alerts import alert_acknowledge

FEED_LENGTH = 50
ROUND_IN_PLAY = (Round.Status.OPEN, Round.Status.SETTLED)


@dataclass(frozen=True)
class FeedAlert:
    alert_id: int
    table_id: int
    table: str
    round_number: int | None
    code: str
    message: str | None  # None while its round is in play
    raised_at: datetime
    acknowledged_by: str | None
    acknowledged_at: datetime | None


def alert_feed(*, table_id: int | None = None, open_only: bool = True) -> list[FeedAlert]:
    """The newest alerts first (unacknowledged ones only, unless asked)."""
    rows = Alert.objects.select_related("table", "round", "acknowledged_by")
    if table_id is not None:
        rows = rows.filter(table_id=table_id)
    if open_only:
        rows = rows.filter(acknowledged_at__isnull=True)
    return [_feed_alert(row) for row in rows.order_by("-raised_at", "-id")[:FEED_LENGTH]]


def _feed_alert(row: Alert) -> FeedAlert:
    in_play = row.round is not None and row.round.status in ROUND_IN_PLAY
    return FeedAlert(
        alert_id=row.pk,
        table_id=row.table_id,
        table=row.table.name,
        round_number=row.round.number if row.round else None,
        code=row.code,
        message=None if in_play else row.message,
        raised_at=row.raised_at,
        acknowledged_by=row.acknowledged_by.get_username() if row.acknowledged_by else None,
        acknowledged_at=row.acknowledged_at,
    )


def feed_acknowledge(*, alert_id: int, viewer: User, note: str = "") -> FeedAlert:
    alert = alert_acknowledge(alert_id=alert_id, by=viewer, note=note)
    return _feed_alert(Alert.objects.select_related("table", "round").get(pk=alert.pk))
