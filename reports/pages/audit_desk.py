"""The auditor's desk: stored reports with their hashes, each table's chain, a round's timeline.

Read-only. A round still in play is never shown here: its face-down cards are secret until it
is over (`tables.selectors.finished_round_get` refuses it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db.models import Prefetch, QuerySet

from reports.models import Report, ReportRendering
from tables import games
from tables.log.chain import canonical_json
from tables.models import CorrectionRequest, Round, Table, TableEvent
from tables.selectors import finished_round_get
from tables.services.engine_state import replay_table
from tables.verification import TableVerification, verify_table


@dataclass(frozen=True)
class ReportRow:
    report_id: int
    kind: str
    gaming_day: date
    shift: str
    table: str | None
    version: int
    reprint: bool
    provisional: bool
    content_hash: str
    # Each stored rendering: (its id, format, language or "", SHA-256 of its bytes).
    renderings: tuple[tuple[int, str, str, str], ...]
    created_at: datetime


def report_rows(
    *,
    gaming_day: date | None = None,
    shift: str | None = None,
    table_id: int | None = None,
    kind: str | None = None,
) -> list[ReportRow]:
    """Every stored version, newest gaming day first, filtered as asked."""
    rows: QuerySet[Report] = Report.objects.select_related("table").prefetch_related(
        Prefetch("renderings", queryset=ReportRendering.objects.defer("content"))
    )
    if gaming_day is not None:
        rows = rows.filter(gaming_day=gaming_day)
    if shift:
        rows = rows.filter(shift=shift)
    if table_id is not None:
        rows = rows.filter(table_id=table_id)
    if kind:
        rows = rows.filter(kind=kind)
    return [_report_row(report) for report in rows[:200]]


def _report_row(report: Report) -> ReportRow:
    return ReportRow(
        report_id=report.pk,
        kind=report.kind,
        gaming_day=report.gaming_day,
        shift=report.shift,
        table=report.table.name if report.table else None,
        version=report.version,
        reprint=report.reprint,
        provisional=report.provisional,
        content_hash=report.content_hash,
        renderings=tuple(
            (rendering.pk, rendering.format, rendering.language, rendering.sha256)
            for rendering in report.renderings.all()
        ),
        created_at=report.created_at,
    )


def table_verification(table: Table) -> TableVerification:
    """`verify_log` for one table: every link, every round replayed, the head hash."""
    return verify_table(table)


@dataclass(frozen=True)
class TimelineEntry:
    seq: int
    type: str
    actor: str | None
    source: str
    occurred_at: datetime
    recorded_at: datetime
    payload: dict[str, Any]


@dataclass(frozen=True)
class RoundTimeline:
    table: str
    number: int
    status: str
    entries: tuple[TimelineEntry, ...]
    replayed: dict[str, Any]  # the engine's audit view, replayed from the log
    projected: dict[str, Any]  # what the round's projection holds
    corrections: tuple[dict[str, Any], ...]

    @property
    def replay_matches(self) -> bool:
        return self.replayed == self.projected


def round_timeline(table: Table, number: int) -> RoundTimeline:
    """Every event of a finished round, the engine's replay of it and its corrections."""
    round_ = finished_round_get(table, number)
    events = TableEvent.objects.filter(table=table, round=round_).select_related("actor")
    entries = tuple(
        TimelineEntry(
            seq=event.seq,
            type=event.type,
            actor=event.actor.get_username() if event.actor else None,
            source=event.source,
            occurred_at=event.occurred_at,
            recorded_at=event.recorded_at,
            payload=event.payload,
        )
        for event in events.order_by("seq")
    )
    binding = games.binding_for(table.game)
    replayed = binding.audit_view(replay_table(table, up_to_seq=round_.last_seq))
    return RoundTimeline(
        table=table.name,
        number=round_.number,
        status=round_.status,
        entries=entries,
        replayed=_comparable(replayed),
        projected=dict(round_.state),
        corrections=tuple(_corrections(round_)),
    )


def _comparable(view: dict[str, Any]) -> dict[str, Any]:
    """In the form the projection is stored in (through canonical JSON, as the verifier)."""
    return dict(json.loads(canonical_json(view, stored=True)))


def _corrections(round_: Round) -> list[dict[str, Any]]:
    rows = CorrectionRequest.objects.filter(round=round_).select_related(
        "requested_by", "decided_by"
    )
    return [
        {
            "command": row.command.get("type"),
            "reason": row.reason,
            "status": row.status,
            "requested_by": row.requested_by.get_username(),
            "decided_by": row.decided_by.get_username() if row.decided_by else None,
            "requested_at": row.requested_at,
            "decided_at": row.decided_at,
            "note": row.decision_note,
        }
        for row in rows.order_by("requested_at")
    ]
