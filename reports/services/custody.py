"""Custody services: the opener, closer, buy-ins and the count (slips: ``services.slips``).

Each one locks the table row (``lock_table``), folds the table's custody facts of the shift
through the pure ledger, lets the ledger admit or refuse the new fact (one rule
implementation), and appends it to the table's log with ``record``, all in one transaction.
A refusal is a ``RuleError`` with a stable code, and nothing is recorded.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from reports.custody import (
    BuyIn,
    Closer,
    CustodyFact,
    DropCounted,
    Opener,
    apply_fact,
    next_opener,
)
from reports.inputs.custody_log import (
    chips_from_payload,
    last_opener_event,
    payload_of,
    previous_closer,
    shift_ledger,
)
from reports.services.signers import check_signer
from reports.shifts import ShiftKey, floor_clock
from tables import policy, roles
from tables.models import Round, Table, TableEvent
from tables.services.append import NewFact
from tables.services.commands import close_settled_round, current_round, lock_table, record
from tables.services.floor import table_set_status

SYSTEM = TableEvent.Source.SYSTEM
TABLET = TableEvent.Source.TABLET


def custody_open(
    *,
    table_id: int,
    dealer: str,
    pit_boss: User,
    chips: Mapping[Any, Any] | None = None,
    occurred_at: datetime | None = None,
    idempotency_key: str | None = None,
) -> TableEvent:
    """Open the table for the shift ``occurred_at`` falls in. Without ``chips`` the last
    closer carries over as the opener; a fresh count wins. Locks the table."""
    check_signer(dealer, roles.DEALER)
    moment = occurred_at or timezone.now()
    key = floor_clock().shift_of(moment)
    with transaction.atomic():
        table = lock_table(table_id)
        policy.check(pit_boss, "custody.open", table)
        new_count = None
        if chips is not None:
            new_count = Opener(chips_from_payload(chips), dealer, pit_boss.get_username())
        opener = next_opener(previous_closer(table), new_count)
        apply_fact(shift_ledger(table, key), opener)
        if table.status != Table.Status.OPEN:
            table_set_status(table_id=table.pk, status=Table.Status.OPEN, actor=pit_boss)
            table = lock_table(table_id)
        return append_custody(table, key, opener, pit_boss, SYSTEM, moment, idempotency_key)


def custody_close(
    *,
    table_id: int,
    dealer: str,
    pit_boss: User,
    chips: Mapping[Any, Any],
    occurred_at: datetime | None = None,
    idempotency_key: str | None = None,
) -> TableEvent:
    """Close the table's shift with the chips left in the tray; a settled round is closed
    first, a round still in play is refused. Locks the table."""
    check_signer(dealer, roles.DEALER)
    with transaction.atomic():
        table = lock_table(table_id)
        policy.check(pit_boss, "custody.close", table)
        key = session_shift(table, occurred_at)
        closer = Closer(chips_from_payload(chips), dealer, pit_boss.get_username())
        apply_fact(shift_ledger(table, key), closer)
        in_play = current_round(table)
        if in_play is not None and in_play.status == Round.Status.SETTLED:
            close_settled_round(table, in_play, pit_boss)
        if table.status == Table.Status.OPEN:
            table_set_status(table_id=table.pk, status=Table.Status.CLOSED, actor=pit_boss)
            table = lock_table(table_id)
        return append_custody(table, key, closer, pit_boss, SYSTEM, occurred_at, idempotency_key)


def buy_in_record(
    *,
    table_id: int,
    amount: int,
    actor: User,
    occurred_at: datetime | None = None,
    idempotency_key: str | None = None,
) -> TableEvent:
    """Cash changed for chips at the table: part of the estimated drop. Locks the table."""
    with transaction.atomic():
        table = lock_table(table_id)
        policy.check(actor, "custody.buy_in", table)
        key = session_shift(table, occurred_at)
        fact = BuyIn(amount)
        apply_fact(shift_ledger(table, key), fact)
        return append_custody(table, key, fact, actor, TABLET, occurred_at, idempotency_key)


def drop_count(
    *,
    table_id: int,
    amount: int,
    counted_by: User,
    shift: ShiftKey | None = None,
    idempotency_key: str | None = None,
) -> TableEvent:
    """The count team's figure for the table's drop box; final once entered (a second count
    is refused). Defaults to the table's latest shift. Locks the table."""
    with transaction.atomic():
        table = lock_table(table_id)
        policy.check(counted_by, "custody.drop", table)
        key = shift or session_shift(table, None)
        fact = DropCounted(amount, counted_by.get_username())
        apply_fact(shift_ledger(table, key), fact)
        return append_custody(table, key, fact, counted_by, SYSTEM, None, idempotency_key)


def session_shift(table: Table, occurred_at: datetime | None) -> ShiftKey:
    """The shift of the table's latest opener: a table's session belongs to the shift it was
    opened in. With no opener yet, the shift of the moment (its ledger then refuses)."""
    opener = last_opener_event(table)
    if opener is not None:
        return ShiftKey.from_payload(opener.payload)
    return floor_clock().shift_of(occurred_at or timezone.now())


def append_custody(
    table: Table,
    key: ShiftKey,
    fact: CustodyFact,
    actor: User,
    source: str,
    occurred_at: datetime | None,
    idempotency_key: str | None,
) -> TableEvent:
    event_type, payload = payload_of(fact)
    new_fact = NewFact(event_type, payload | key.as_payload())
    rows = record(table, None, [new_fact], actor, source, occurred_at, idempotency_key)
    return rows[-1]
