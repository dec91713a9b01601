"""Read-only queries for the API and the pages."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from rest_framework.exceptions import NotFound, PermissionDenied

from tables import games, raw_rows
from tables.models import Alert, CorrectionRequest, Round, Table, TableEvent
from tables.services import engine_state

NO_SUCH_TABLE = "There is no such table."


def table_get(table_id: int) -> Table:
    table = raw_rows.by_pk(Table, table_id)  # read on every request: the query is kept
    if table is None:
        raise NotFound(NO_SUCH_TABLE)
    return table


def table_live_view(table: Table) -> dict[str, Any]:
    """What a tablet or dashboard may see now; never a face-down card."""
    return games.binding_for(table.game).live_view(engine_state.current_state(table))


def finished_round_get(table: Table, number: int) -> Round:
    """A round that is over (closed or voided); a round in play keeps its secrets."""
    round_ = Round.objects.filter(table=table, number=number).first()
    if round_ is None:
        raise NotFound("There is no such round.")
    if round_.status not in (Round.Status.CLOSED, Round.Status.VOIDED):
        raise PermissionDenied("This round is still in play; its face-down cards stay hidden.")
    return round_


def table_events_for_audit(table: Table) -> QuerySet[TableEvent]:
    """The log, without the events of a round still in play (its face-down cards are secret)."""
    in_play = Round.objects.filter(
        table=table, status__in=(Round.Status.OPEN, Round.Status.SETTLED)
    )
    return (
        TableEvent.objects.filter(table=table)
        .exclude(round__in=in_play)
        .select_related("round", "actor")
        .order_by("seq")
    )


def alerts_list(*, table_id: int | None = None, open_only: bool = False) -> QuerySet[Alert]:
    alerts = Alert.objects.select_related("table", "round", "acknowledged_by")
    if table_id is not None:
        alerts = alerts.filter(table_id=table_id)
    if open_only:
        alerts = alerts.filter(acknowledged_at__isnull=True)
    return alerts


def corrections_list(*, status: str | None = None) -> QuerySet[CorrectionRequest]:
    corrections = CorrectionRequest.objects.select_related(
        "table", "round", "requested_by", "decided_by"
    )
    return corrections.filter(status=status) if status else corrections
