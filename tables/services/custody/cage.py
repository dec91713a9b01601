"""The cage's own figures for a shift, entered by a cashier: version 1, or a correction with a
reason as the next version. Rows are never changed."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from reports.models import CageFigures
from reports.shifts import ShiftKey, floor_clock
from tables import policy
from tables.engine.custody.cage import CageTotals, next_cage_figures
from tables.engine.errors import NotAllowedNowError


def cage_figures_enter(
    *,
    key: ShiftKey,
    fills_issued: object,
    credits_received: object,
    cashier: User,
    reason: str = "",
) -> CageFigures:
    """Store the cage's totals for ``key``; a shift that has not begun has no figures yet.
    Two cashiers entering at once: the unique version lets one through and refuses the other."""
    policy.check(cashier, "cage.figures")
    starts_at, _ = floor_clock().bounds(key)
    if starts_at > timezone.now():
        raise NotAllowedNowError(
            f"The shift {key.gaming_day} {key.shift} has not begun; it has no cage figures yet.",
            code="shift_not_started",
        )
    figures = next_cage_figures(
        latest_cage_figures(key),
        fills_issued=fills_issued,
        credits_received=credits_received,
        entered_by=cashier.username,
        reason=reason,
    )
    try:
        with transaction.atomic():
            return CageFigures.objects.create(
                gaming_day=key.gaming_day,
                shift=key.shift,
                version=figures.version,
                fills_issued=figures.fills_issued,
                credits_received=figures.credits_received,
                entered_by=cashier,
                entered_at=timezone.now(),
                reason=figures.reason,
            )
    except IntegrityError:
        raise NotAllowedNowError(
            "Someone entered the cage's figures for this shift at the same moment; look at "
            "them and correct them if they are wrong.",
            code="cage_figures_changed",
        ) from None


def latest_cage_figures(key: ShiftKey) -> CageTotals | None:
    row = (
        CageFigures.objects.filter(gaming_day=key.gaming_day, shift=key.shift)
        .select_related("entered_by")
        .order_by("-version")
        .first()
    )
    if row is None:
        return None
    return CageTotals(
        fills_issued=row.fills_issued,
        credits_received=row.credits_received,
        entered_by=row.entered_by.get_username(),
        version=row.version,
        reason=row.reason,
    )
