"""Everything one table's shift report is built from, read from the log and its projections."""

from __future__ import annotations

from dataclasses import dataclass

from reports.builders.inputs import Alert, TableInfo
from reports.custody import Closer, CustodyLedger
from reports.figures import RoundSummary
from reports.inputs.custody_log import custody_events, ledger_from_events, previous_closer
from reports.inputs.rounds import round_summary, shift_rounds, shift_window
from reports.shifts import ShiftKey
from tables.models import Alert as AlertRow
from tables.models import Table

GAME_NAMES = {"seven_card_stud": "stud"}


@dataclass(frozen=True)
class TableShiftInputs:
    table: TableInfo
    ledger: CustodyLedger
    rounds: tuple[RoundSummary, ...]
    alerts: tuple[Alert, ...]
    previous_closer: Closer | None
    watermark: dict[str, int]


def table_info(table: Table) -> TableInfo:
    return TableInfo(table.name, table.name, GAME_NAMES.get(table.game, table.game))


def table_shift_inputs(table: Table, key: ShiftKey) -> TableShiftInputs:
    events = custody_events(table, key)
    window = shift_window(table, key)
    rounds = tuple(round_summary(table.game, row) for row in shift_rounds(table, window))
    opener_seq = next((event.seq for event in events if event.type == "custody.opener"), None)
    last_seq = max([event.seq for event in events] + [window[1] if window else 0])
    return TableShiftInputs(
        table=table_info(table),
        ledger=ledger_from_events(table, events),
        rounds=rounds,
        alerts=tuple(_alerts(table, window)),
        previous_closer=previous_closer(table, before_seq=opener_seq) if opener_seq else None,
        watermark={table.name: last_seq},
    )


def _alerts(table: Table, window: tuple[int, int] | None) -> list[Alert]:
    if window is None:
        return []
    rows = AlertRow.objects.filter(table=table, event__seq__range=window).select_related("round")
    return [
        Alert(
            table=table.name,
            kind=row.code,
            raised_at=row.raised_at,
            message=row.message,
            round_id=str(row.round.number) if row.round else None,
        )
        for row in rows.order_by("event__seq")
    ]
