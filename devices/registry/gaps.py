"""A pit boss resolves a gap the shoe could not fill: the lost events are written off, the
link stops asking for them, and anything that still arrives for them is recorded late."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from devices.models import DeviceGap
from tables import roles
from tables.engine.errors import NotAllowedNowError


def gap_resolve(*, gap_id: int, by: User, note: str) -> DeviceGap:
    if not roles.has_role(by, roles.PIT_BOSS):
        raise NotAllowedNowError("Only a pit boss may resolve a gap.", code="not_a_pit_boss")
    with transaction.atomic():
        gap = DeviceGap.objects.select_for_update().filter(pk=gap_id).first()
        if gap is None:
            raise NotAllowedNowError("There is no such gap.", code="gap_not_found")
        if gap.resolved_at is not None:
            raise NotAllowedNowError("This gap is already resolved.", code="gap_resolved")
        gap.resolved_by, gap.resolved_at, gap.note = by, timezone.now(), note[:200]
        gap.save(update_fields=["resolved_by", "resolved_at", "note"])
        return gap
