"""Custody services: the opener, closer, buy-ins and the count (slips: ``custody.slips``).

The pit boss counts the tray; the table's dealer confirms the count with his own login, and
only then is it the shift's opener or closer.

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

from reports.shifts import ShiftKey, floor_clock
from tables import policy, roles
from tables.engine.custody import (
    BuyIn,
    ChipsCounted,
    Closer,
    CustodyFact,
    CustodyState,
    DropCounted,
    Opener,
    fold,
    next_opener,
)
from tables.engine.custody.codec import chips_from_payload, encode
from tables.engine.errors import InvalidInputError, NotAllowedNowError
from tables.models import Round, Table, TableEvent
from tables.services.append import NewFact
from tables.services.commands import close_settled_round, current_round, lock_table, record
from tables.services.custody.log import (
    last_count_event,
    last_opener_event,
    previous_closer,
    shift_ledger,
)
from tables.services.custody.signers import check_signer
from tables.services.floor import table_status_change

SYSTEM = TableEvent.Source.SYSTEM
TABLET = TableEvent.Source.TABLET


def custody_open(
    *,
    table_id: int,
    pit_boss: User,
    chips: Mapping[Any, Any] | None = None,
    carry_over: bool = False,
    occurred_at: datetime | None = None,
    idempotency_key: str | None = None,
) -> TableEvent:
    """The pit boss's opening count for the shift ``occurred_at`` falls in: a new count
    (``chips``) or, by his explicit choice (``carry_over``), the last closer. The table opens
    when its dealer confirms the count (:func:`count_confirm`). Locks the table."""
    check_signer(pit_boss.get_username(), roles.PIT_BOSS)
    moment = occurred_at or timezone.now()
    key = floor_clock().shift_of(moment)
    with transaction.atomic():
        table = lock_table(table_id)
        policy.check(pit_boss, "custody.open", table)
        count = _opening_count(table, chips, carry_over, pit_boss)
        after = fold(shift_ledger(table, key), count)
        return append_custody(
            table, key, count, pit_boss, SYSTEM, moment, idempotency_key, state=after
        )


def _opening_count(
    table: Table, chips: Mapping[Any, Any] | None, carry_over: bool, pit_boss: User
) -> ChipsCounted:
    """A new count, or the last closer carried over: one of the two, chosen by the pit boss."""
    if chips is not None and carry_over:
        raise InvalidInputError(
            "Either count the chips or carry the last closer over, not both.",
            code="count_or_carry_over",
        )
    if chips is None and not carry_over:
        raise NotAllowedNowError(
            "Count the chips to open the table, or choose to carry the last closer over.",
            code="opening_count_required",
        )
    if chips is None:
        carried = next_opener(previous_closer(table))
        return ChipsCounted(carried.chips, pit_boss.get_username(), carried_over=True)
    return ChipsCounted(chips_from_payload(chips), pit_boss.get_username())


def custody_close(
    *,
    table_id: int,
    pit_boss: User,
    chips: Mapping[Any, Any],
    occurred_at: datetime | None = None,
    idempotency_key: str | None = None,
) -> TableEvent:
    """The pit boss's count of the chips left in the tray: play stops (a settled round is
    closed first, a round still in play is refused) and the dealer's confirmation makes it
    the shift's closer (:func:`count_confirm`). Locks the table."""
    check_signer(pit_boss.get_username(), roles.PIT_BOSS)
    with transaction.atomic():
        table = lock_table(table_id)
        policy.check(pit_boss, "custody.close", table)
        key = session_shift(table, occurred_at)
        count = ChipsCounted(chips_from_payload(chips), pit_boss.get_username(), closing=True)
        after = fold(shift_ledger(table, key), count)
        in_play = current_round(table)
        if in_play is not None and in_play.status == Round.Status.SETTLED:
            close_settled_round(table, in_play, pit_boss)
        if table.status == Table.Status.OPEN:
            table_status_change(table, Table.Status.CLOSED, pit_boss)
        return append_custody(
            table, key, count, pit_boss, SYSTEM, occurred_at, idempotency_key, state=after
        )


def count_confirm(
    *,
    table_id: int,
    dealer: User,
    closing: bool,
    occurred_at: datetime | None = None,
    idempotency_key: str | None = None,
) -> TableEvent:
    """The table's own dealer signs the pit boss's count with his login, as he confirms slips:
    the opener (the table opens) or, ``closing``, the closer. Locks the table."""
    check_signer(dealer.get_username(), roles.DEALER)
    with transaction.atomic():
        table = lock_table(table_id)
        # The policy: only the dealer assigned to this table confirms its counts.
        policy.check(dealer, "custody.confirm", table)
        key, count = _pending_count(table, closing)
        signed = _signed_count(count, dealer.get_username())
        after = fold(shift_ledger(table, key), signed)
        event = append_custody(
            table, key, signed, dealer, TABLET, occurred_at, idempotency_key, state=after
        )
        if not closing and table.status != Table.Status.OPEN:
            table_status_change(table, Table.Status.OPEN, dealer)
        return event


def _pending_count(table: Table, closing: bool) -> tuple[ShiftKey, ChipsCounted]:
    counted = last_count_event(table)
    if counted is not None:
        key = ShiftKey.from_payload(counted.payload)
        count = shift_ledger(table, key).count
        if count is not None and count.closing == closing:
            return key, count
    what = "closing" if closing else "opening"
    raise NotAllowedNowError(
        f"There is no {what} count waiting for the dealer's confirmation.",
        code="no_count_to_confirm",
    )


def _signed_count(count: ChipsCounted, dealer: str) -> Opener | Closer:
    if count.closing:
        return Closer(count.chips, dealer, count.pit_boss)
    return Opener(count.chips, dealer, count.pit_boss, count.carried_over)


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
        return buy_in_admit(table, amount, actor, TABLET, occurred_at, idempotency_key)


def buy_in_admit(
    table: Table,
    amount: int,
    actor: User | None,
    source: str,
    occurred_at: datetime | None = None,
    idempotency_key: str | None = None,
) -> TableEvent:
    """Admit a buy-in through the shift's ledger and append it (a seat's buy-in is one too).
    The caller holds the table lock."""
    key = session_shift(table, occurred_at)
    fact = BuyIn(amount)
    after = fold(shift_ledger(table, key), fact)
    return append_custody(
        table, key, fact, actor, source, occurred_at, idempotency_key, state=after
    )


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
        after = fold(shift_ledger(table, key), fact)
        return append_custody(
            table, key, fact, counted_by, SYSTEM, None, idempotency_key, state=after
        )


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
    actor: User | None,
    source: str,
    occurred_at: datetime | None,
    idempotency_key: str | None,
    *,
    state: CustodyState,
) -> TableEvent:
    """Append one admitted fact through the command path; ``state`` is the shift's custody
    state after it (what the fold returned), which the slip projection is written from."""
    event_type, payload = encode(fact)
    new_fact = NewFact(event_type, payload | key.as_payload())
    rows = record(table, None, [new_fact], actor, source, occurred_at, idempotency_key, state=state)
    return rows[-1]
