"""The cashier's counter: slips waiting at the cage, the day's series, the cage's figures.

Read-only; the cashier's actions go through `tables.services.custody.slips` and
`tables.services.custody.cage`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import QuerySet

from reports.models import Report, Slip
from reports.services.storing import latest_report
from reports.shifts import ShiftKey
from tables.engine.custody.chips import chips_total
from tables.engine.custody.codec import chips_from_payload
from tables.engine.custody.slips import SLIP_TYPES
from tables.models import TableEvent
from tables.services.custody.cage import latest_cage_figures

USED, VOID, OUTSTANDING, MISSING = "used", "void", "outstanding", "missing"


@dataclass(frozen=True)
class CageSlip:
    slip_type: str
    number: int
    table_id: int
    table: str
    stage: str
    voided: bool
    chips: dict[int, int]  # denomination -> chips, as the pit requested them
    total: int
    requested_by: str
    requested_at: datetime

    @property
    def waiting_at_cage(self) -> bool:
        return not self.voided and self.stage == Slip.Stage.REQUESTED


def waiting_slips() -> list[CageSlip]:
    """Fills to issue and credits to receive, oldest first."""
    rows = Slip.objects.filter(voided=False, stage=Slip.Stage.REQUESTED)
    return _cage_slips(rows.order_by("issued_at", "slip_type", "number"))


def table_slips(table_id: int, limit: int = 20) -> list[CageSlip]:
    """A table's latest slips, newest first (a pit boss asks for a void from these)."""
    rows = Slip.objects.filter(table_id=table_id).order_by("-issued_at", "-number")
    return _cage_slips(rows[:limit])


def cage_slip(slip_type: str, number: int) -> CageSlip | None:
    found = _cage_slips(Slip.objects.filter(slip_type=slip_type, number=number))
    return found[0] if found else None


@dataclass(frozen=True)
class SeriesEntry:
    number: int
    status: str  # used, void, outstanding (a step still to come), or missing (a gap)
    slip: CageSlip | None


@dataclass(frozen=True)
class DaySeries:
    slip_type: str
    entries: tuple[SeriesEntry, ...]

    @property
    def first(self) -> int | None:
        return self.entries[0].number if self.entries else None

    @property
    def last(self) -> int | None:
        return self.entries[-1].number if self.entries else None

    def count(self, status: str) -> int:
        return sum(1 for entry in self.entries if entry.status == status)

    @property
    def voided(self) -> int:
        return self.count(VOID)

    @property
    def missing(self) -> int:
        return self.count(MISSING)


def day_series(gaming_day: date) -> list[DaySeries]:
    """Each slip type's numbers given out on the gaming day, first to last, with the gaps."""
    series = []
    for slip_type in SLIP_TYPES:
        rows = Slip.objects.filter(slip_type=slip_type, gaming_day=gaming_day).order_by("number")
        by_number = {slip.number: slip for slip in _cage_slips(rows)}
        entries = []
        if by_number:
            for number in range(min(by_number), max(by_number) + 1):
                slip = by_number.get(number)
                entries.append(SeriesEntry(number, _series_status(slip), slip))
        series.append(DaySeries(slip_type, tuple(entries)))
    return series


def _series_status(slip: CageSlip | None) -> str:
    if slip is None:
        return MISSING
    if slip.voided:
        return VOID
    return USED if slip.stage == Slip.Stage.CONFIRMED else OUTSTANDING


@dataclass(frozen=True)
class CageShiftFigures:
    """What the slips say the cage issued and received in the shift, beside what the cashier
    entered as the cage's own totals (None until entered)."""

    fills_issued: int
    credits_received: int
    entered_fills_issued: int | None
    entered_credits_received: int | None
    entered_by: str | None
    version: int | None
    cashier_report: Report | None


def cage_shift_figures(key: ShiftKey) -> CageShiftFigures:
    rows = Slip.objects.filter(gaming_day=key.gaming_day, shift=key.shift, voided=False)
    passed = rows.exclude(stage=Slip.Stage.REQUESTED)
    totals: dict[str, int] = dict.fromkeys(SLIP_TYPES, 0)
    for slip in _cage_slips(passed):
        totals[slip.slip_type] += slip.total
    entered = latest_cage_figures(key)
    return CageShiftFigures(
        fills_issued=totals["fill"],
        credits_received=totals["credit"],
        entered_fills_issued=entered.fills_issued if entered else None,
        entered_credits_received=entered.credits_received if entered else None,
        entered_by=entered.entered_by if entered else None,
        version=entered.version if entered else None,
        cashier_report=latest_report(Report.Kind.CASHIER, key, "floor"),
    )


def _cage_slips(rows: QuerySet[Slip]) -> list[CageSlip]:
    """The slips with the chips and the requester of the event that gave out their number."""
    slips = list(rows.select_related("table"))
    events = TableEvent.objects.filter(
        table_id__in={slip.table_id for slip in slips}, seq__in={slip.seq for slip in slips}
    ).values_list("table_id", "seq", "payload")
    requests = {(table_id, seq): payload for table_id, seq, payload in events}
    found = []
    for slip in slips:
        payload = requests.get((slip.table_id, slip.seq), {})
        chips = chips_from_payload(payload.get("chips", {}))
        found.append(
            CageSlip(
                slip_type=slip.slip_type,
                number=slip.number,
                table_id=slip.table_id,
                table=slip.table.name,
                stage=slip.stage,
                voided=slip.voided,
                chips=chips,
                total=chips_total(chips),
                requested_by=str(payload.get("requested_by", "")),
                requested_at=slip.issued_at,
            )
        )
    return found
