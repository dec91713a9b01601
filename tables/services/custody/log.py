"""A table's custody facts as its log holds them, and the state the pure custody fold makes of
them: what the custody services decide on and what the reports read.

Each `custody.*` payload names the gaming day and shift it belongs to; a shift's facts are its
custody events in seq order, decoded by the one codec (tables.engine.custody.codec).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from functools import reduce
from operator import or_
from typing import Any, NamedTuple

from django.db.models import Q, Subquery

from reports.denominations import table_denominations
from reports.shifts import ShiftKey
from tables.engine.custody import codec
from tables.engine.custody.state import Closer, CustodyState, fold_all, new_state
from tables.models import Table, TableEvent


class CustodyRow(NamedTuple):
    """What the reports read of a custody event: read as a tuple, not as a model instance."""

    type: str
    seq: int
    payload: dict[str, Any]


def custody_events(table: Table, key: ShiftKey) -> list[CustodyRow]:
    rows = (
        TableEvent.objects.filter(
            table=table,
            type__in=codec.CUSTODY_TYPES,
            payload__gaming_day=key.gaming_day.isoformat(),
            payload__shift=key.shift,
        )
        .order_by("seq")
        .values_list("type", "seq", "payload")
    )
    return [CustodyRow(*row) for row in rows]


def empty_state(table: Table) -> CustodyState:
    return new_state(table.name, table_denominations(table))


def ledger_from_events(table: Table, events: Iterable[CustodyRow]) -> CustodyState:
    """Fold the recorded facts with the same rules that admitted them."""
    facts = [codec.decode(event.type, event.payload) for event in events]
    return fold_all(empty_state(table), facts)


def shift_ledger(table: Table, key: ShiftKey) -> CustodyState:
    return ledger_from_events(table, custody_events(table, key))


def latest_event(
    table: Table, types: Collection[str], *, before_seq: int | None = None
) -> TableEvent | None:
    """The table's latest event of any of `types` (before `before_seq`, when given).

    One query reading about one row per type whatever the table's age: each type's latest is
    its own `(table, type, seq)` index probe, a scalar subquery. `type IN (...) ORDER BY seq
    DESC` would read and sort every shift's rows of those types: the index's order is by
    type first."""
    probes = []
    for type_ in types:
        rows = TableEvent.objects.filter(table=table, type=type_)
        if before_seq is not None:
            rows = rows.filter(seq__lt=before_seq)
        probes.append(Q(pk=Subquery(rows.order_by("-seq").values("pk")[:1])))
    return TableEvent.objects.filter(reduce(or_, probes)).order_by("-seq").first()


def last_opener_event(table: Table) -> TableEvent | None:
    return latest_event(table, (codec.OPENER,))


def last_count_event(table: Table) -> TableEvent | None:
    """The pit boss's latest count of the table's tray, confirmed or not."""
    return latest_event(table, tuple(codec.COUNTED.values()))


def previous_closer(table: Table, *, before_seq: int | None = None) -> Closer | None:
    """The last closer on the table's log (before ``before_seq``, when given)."""
    event = latest_event(table, (codec.CLOSER,), before_seq=before_seq)
    if event is None:
        return None
    closer = codec.decode(event.type, event.payload)
    assert isinstance(closer, Closer)
    return closer
