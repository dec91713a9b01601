"""The cage's projection of a table's custody facts: one `Slip` row per fill or credit slip,
written from the pure custody fold at each step of it, live and on a rebuild alike
(tables.services.projectors).

The projection's state is the custody state of the fact's shift after the fact: the service
that admitted it hands it to `record`, and the rebuild folds it again (services.custody.replay).
A caller without it (several facts at once) gets the shift folded from the log.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from reports.models import Slip
from reports.shifts import ShiftKey
from tables.engine.custody import codec
from tables.engine.custody.slips import slip_type_of
from tables.engine.custody.state import (
    Credit,
    CustodyState,
    Fill,
    SlipCageSigned,
    SlipConfirmed,
    SlipRequested,
    SlipStatus,
    SlipVoided,
    slip_status,
)
from tables.models import Table, TableEvent
from tables.services import projectors
from tables.services.custody.log import custody_events, ledger_from_events

REQUESTED = frozenset(codec.SLIP_REQUESTED.values())
CAGE_SIGNED = frozenset(codec.SLIP_CAGE_SIGNED.values())
CONFIRMED = frozenset(codec.SLIP_CONFIRMED.values())
# A slip written whole, with its three signers (the log before slips had three steps).
WHOLE = frozenset({codec.FILL, codec.CREDIT})
SLIP_EVENTS = frozenset({*REQUESTED, *CAGE_SIGNED, *CONFIRMED, codec.SLIP_VOIDED, *WHOLE})
SLIP_FIELDS = (
    "table", "gaming_day", "shift", "seq", "issued_at", "stage", "cage_signed_at",
    "confirmed_at", "voided",
)  # fmt: skip


def project_slips(projection: projectors.Projection, rows: Sequence[TableEvent]) -> None:
    for row in rows:
        fact = codec.decode(row.type, row.payload)
        if isinstance(fact, Fill | Credit):
            slip_type, number = slip_type_of(fact), fact.slip_number
        else:
            assert isinstance(fact, SlipRequested | SlipCageSigned | SlipConfirmed | SlipVoided)
            slip_type, number = fact.slip_type, fact.slip_number
        state = _state_after(projection, rows, row)
        status = slip_status(state, slip_type, number)
        assert status is not None  # the fold just admitted a step of this slip
        slip = Slip.objects.filter(slip_type=slip_type, number=number)
        if isinstance(fact, SlipRequested | Fill | Credit):
            _number_given(projection.table, row, slip_type, number, status)
        elif isinstance(fact, SlipCageSigned):
            slip.update(stage=status.stage, cage_signed_at=row.recorded_at)
        elif isinstance(fact, SlipConfirmed):
            slip.update(stage=status.stage, confirmed_at=row.recorded_at)
        else:
            slip.update(voided=status.voided)


def _state_after(
    projection: projectors.Projection, rows: Sequence[TableEvent], row: TableEvent
) -> CustodyState:
    if len(rows) == 1 and isinstance(projection.state, CustodyState):
        return projection.state
    key = ShiftKey.from_payload(row.payload)
    events = [event for event in custody_events(projection.table, key) if event.seq <= row.seq]
    return ledger_from_events(projection.table, events)


def _number_given(
    table: Table, row: TableEvent, slip_type: str, number: int, status: SlipStatus
) -> None:
    """The slip's row as its number is given out (a whole slip: already confirmed). An upsert
    on the number, so a rebuild keeps the row and its id."""
    data = row.payload
    slip = Slip(
        slip_type=slip_type,
        number=number,
        table=table,
        gaming_day=date.fromisoformat(data["gaming_day"]),
        shift=data["shift"],
        seq=row.seq,
        issued_at=row.recorded_at,
        stage=status.stage,
        confirmed_at=row.recorded_at if row.type in WHOLE else None,
        voided=status.voided,
    )
    Slip.objects.bulk_create(
        [slip],
        update_conflicts=True,
        unique_fields=("slip_type", "number"),
        update_fields=SLIP_FIELDS,
    )


def register_projector() -> None:
    projectors.register(
        projectors.Projector(
            "slips",
            SLIP_EVENTS,
            project_slips,
            lambda table: None,  # upserted on their numbers, never deleted: ids survive
        )
    )
