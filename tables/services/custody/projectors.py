"""The cage's projection of a table's custody facts: one `Slip` row per fill or credit slip,
moved by each step of it, live and on a rebuild alike (tables.services.projectors)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from reports.models import Slip
from tables.engine.custody.codec import (
    CREDIT,
    FILL,
    SLIP_CAGE_SIGNED,
    SLIP_CONFIRMED,
    SLIP_REQUESTED,
    SLIP_VOIDED,
)
from tables.engine.custody.slips import cage_step
from tables.models import Table, TableEvent
from tables.services import projectors

REQUESTED = frozenset(SLIP_REQUESTED.values())
CAGE_SIGNED = frozenset(SLIP_CAGE_SIGNED.values())
CONFIRMED = frozenset(SLIP_CONFIRMED.values())
# A slip written whole, with its three signers (the log before slips had three steps).
WHOLE = {FILL: "fill", CREDIT: "credit"}
SLIP_FIELDS = (
    "table", "gaming_day", "shift", "seq", "issued_at", "stage", "cage_signed_at",
    "confirmed_at", "voided",
)  # fmt: skip


def project_slips(projection: projectors.Projection, rows: Sequence[TableEvent]) -> None:
    for row in rows:
        data = row.payload
        if row.type in REQUESTED or row.type in WHOLE:
            _number_given(projection.table, row)
            continue
        slip = Slip.objects.filter(slip_type=data["slip_type"], number=data["slip_number"])
        if row.type in CAGE_SIGNED:
            slip.update(stage=cage_step(data["slip_type"]), cage_signed_at=row.recorded_at)
        elif row.type in CONFIRMED:
            slip.update(stage=Slip.Stage.CONFIRMED, confirmed_at=row.recorded_at)
        elif row.type == SLIP_VOIDED:
            slip.update(voided=True)


def _number_given(table: Table, row: TableEvent) -> None:
    """The slip's row as its number is given out (a whole slip: already confirmed). An upsert
    on the number, so a rebuild keeps the row and its id."""
    data = row.payload
    whole = row.type in WHOLE
    slip = Slip(
        slip_type=WHOLE.get(row.type) or data["slip_type"],
        number=data["slip_number"],
        table=table,
        gaming_day=date.fromisoformat(data["gaming_day"]),
        shift=data["shift"],
        seq=row.seq,
        issued_at=row.recorded_at,
        stage=Slip.Stage.CONFIRMED if whole else Slip.Stage.REQUESTED,
        confirmed_at=row.recorded_at if whole else None,
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
            frozenset({*REQUESTED, *CAGE_SIGNED, *CONFIRMED, SLIP_VOIDED, *WHOLE}),
            project_slips,
            lambda table: None,  # upserted on their numbers, never deleted: ids survive
        )
    )
