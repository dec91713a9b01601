"""Everything one table's shift report is built from, read from the log and its projections."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import connection

from reports.builders.inputs import Alert, TableInfo
from reports.figures import RoundSummary
from reports.inputs.round_sums import summed_rounds
from reports.inputs.rounds import round_summary, shift_rounds
from reports.shifts import ShiftKey
from tables.engine.custody import Closer, CustodyState
from tables.engine.custody.codec import CLOSER, OPENER
from tables.models import Alert as AlertRow
from tables.models import Table
from tables.services.custody.log import (
    CustodyRow,
    custody_events,
    ledger_from_events,
    previous_closer,
)


@dataclass(frozen=True)
class TableShiftInputs:
    table: TableInfo
    ledger: CustodyState
    rounds: tuple[RoundSummary, ...]
    alerts: tuple[Alert, ...]
    previous_closer: Closer | None
    watermark: dict[str, int]
    # The seq of each round's settlement, when it was read with the rounds (else None).
    settled_seqs: dict[int, int] | None = field(default=None)


def table_info(table: Table) -> TableInfo:
    return TableInfo(table.name, table.name, table.game)


def table_shift_inputs(table: Table, key: ShiftKey) -> TableShiftInputs:
    events = custody_events(table, key)
    window = window_of(table, events)
    rounds, settled_seqs = _rounds(table, window)
    opener_seq = window[0] if window else None
    last_seq = max([event.seq for event in events] + [window[1] if window else 0])
    return TableShiftInputs(
        table=table_info(table),
        ledger=ledger_from_events(table, events),
        rounds=rounds,
        alerts=tuple(_alerts(table, window)),
        previous_closer=previous_closer(table, before_seq=opener_seq) if opener_seq else None,
        watermark={table.name: last_seq},
        settled_seqs=settled_seqs,
    )


def window_of(table: Table, events: list[CustodyRow]) -> tuple[int, int] | None:
    """The seqs from the shift's opener to its closer (or the log's head), from its custody
    events: the same window as :func:`reports.inputs.rounds.shift_window`, without a query."""
    opener = next((event.seq for event in events if event.type == OPENER), None)
    if opener is None:
        return None
    closers = [event.seq for event in events if event.type == CLOSER]
    return opener, closers[-1] if closers else table.head_seq


def _rounds(
    table: Table, window: tuple[int, int] | None
) -> tuple[tuple[RoundSummary, ...], dict[int, int] | None]:
    """On PostgreSQL the database sums each round's amounts (far less JSON to decode)."""
    if window is not None and connection.vendor == "postgresql":
        summaries, settled_seqs = summed_rounds(table, window)
        return tuple(summaries), settled_seqs
    return tuple(round_summary(table.game, row) for row in shift_rounds(table, window)), None


def _alerts(table: Table, window: tuple[int, int] | None) -> list[Alert]:
    if window is None:
        return []
    rows = (
        AlertRow.objects.filter(table=table, event__seq__range=window)
        .order_by("event__seq")
        .values_list("code", "raised_at", "message", "round__number")
    )
    return [
        Alert(
            table=table.name,
            kind=code,
            raised_at=raised_at,
            message=message,
            round_id=str(number) if number is not None else None,
        )
        for code, raised_at, message, number in rows
    ]
