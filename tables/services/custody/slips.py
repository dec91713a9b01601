"""Slip services: the pit requests, a cashier issues (fill) or receives (credit), the table's
dealer confirms; a pit boss approves a void.

Each step locks the slip's table, folds the table's custody facts of the slip's shift through
the pure ledger (which admits or refuses the step, with its code), appends the step to the
table's log and moves the `Slip` projection, in one transaction. A refusal records nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from reports.denominations import table_denominations
from reports.models import Slip, SlipSeries
from reports.shifts import ShiftKey
from tables import policy
from tables.engine.custody import (
    SLIP_TYPES,
    CustodyState,
    SlipCageSigned,
    SlipConfirmed,
    SlipRequested,
    SlipType,
    SlipVoided,
    chips_from_amounts,
    fold,
)
from tables.engine.custody.codec import chips_from_payload
from tables.engine.errors import InvalidInputError, NotAllowedNowError
from tables.models import CorrectionRequest, Table, TableEvent
from tables.policy import four_eyes
from tables.services.commands import lock_table
from tables.services.corrections import (
    ServiceCorrection,
    correction_request,
    register_service_correction,
)
from tables.services.custody.counts import SYSTEM, TABLET, append_custody, session_shift
from tables.services.custody.log import shift_ledger


def slip_request(
    *,
    slip_type: str,
    table_id: int,
    amounts: Mapping[Any, Any],
    pit_boss: User,
    occurred_at: datetime | None = None,
    idempotency_key: str | None = None,
) -> TableEvent:
    """The pit asks for a fill or a credit, written as money per denomination. The slip takes
    the next number of the floor's series for its type now, so the series stays continuous;
    a refused request gives its number back. Locks the table, then the series."""
    kind = _slip_type(slip_type)
    with transaction.atomic():
        table = lock_table(table_id)
        policy.check(pit_boss, "slip.request", table)
        chips = chips_from_amounts(chips_from_payload(amounts), table_denominations(table))
        key = session_shift(table, occurred_at)
        number = _next_slip_number(kind)
        fact = SlipRequested(kind, number, chips, pit_boss.get_username())
        after = fold(shift_ledger(table, key), fact)
        # The `Slip` row is the projection of the request (tables.services.custody.projectors).
        return append_custody(
            table, key, fact, pit_boss, SYSTEM, occurred_at, idempotency_key, state=after
        )


def slip_cage_sign(
    *,
    slip_type: str,
    slip_number: int,
    cashier: User,
    amounts: Mapping[Any, Any] | None = None,
    idempotency_key: str | None = None,
) -> TableEvent:
    """A cashier issues a fill's chips or receives a credit's. ``amounts``, when given, must be
    what the pit requested: another amount is refused (void, then request again). Locks the
    slip's table."""
    slip = _slip(slip_type, slip_number)
    return _take_step(
        slip, cashier, amounts, SlipCageSigned, SYSTEM, None, idempotency_key,
        step_rule="slip.cage_sign",
    )  # fmt: skip


def slip_confirm(
    *,
    slip_type: str,
    slip_number: int,
    dealer: User,
    amounts: Mapping[Any, Any] | None = None,
    occurred_at: datetime | None = None,
    idempotency_key: str | None = None,
) -> TableEvent:
    """The dealer assigned to the slip's table confirms the chips at the table; only now does
    the slip move the table's figures. Locks the slip's table."""
    slip = _slip(slip_type, slip_number)
    return _take_step(
        slip, dealer, amounts, SlipConfirmed, TABLET, occurred_at, idempotency_key,
        step_rule="slip.confirm",
    )  # fmt: skip


def _take_step(
    slip: Slip,
    signer: User,
    amounts: Mapping[Any, Any] | None,
    step: type[SlipCageSigned] | type[SlipConfirmed],
    source: str,
    occurred_at: datetime | None,
    idempotency_key: str | None,
    *,
    step_rule: str,
) -> TableEvent:
    """Admit the signer's step through the policy and the table's ledger and log it (the
    `Slip` row moves with it: tables.services.custody.projectors)."""
    with transaction.atomic():
        table = lock_table(slip.table_id)
        policy.check(signer, step_rule, table)
        key = ShiftKey(slip.gaming_day, slip.shift)
        ledger = shift_ledger(table, key)
        chips = _counted_chips(ledger, table, slip, amounts)
        fact = step(_slip_type(slip.slip_type), slip.number, chips, signer.username)
        after = fold(ledger, fact)
        return append_custody(
            table, key, fact, signer, source, occurred_at, idempotency_key, state=after
        )


def slip_void_request(
    *, slip_type: str, slip_number: int, reason: str, requested_by: User
) -> CorrectionRequest:
    """A pit boss asks for a slip's void; a different pit boss approves it as a correction
    (`tables.services.corrections.correction_approve`). Locks the slip's table."""
    slip = _slip(slip_type, slip_number)
    return correction_request(
        table_id=slip.table_id,
        command_type=VOID_SLIP,
        command_data={"slip_type": slip.slip_type, "slip_number": slip.number},
        reason=reason,
        requested_by=requested_by,
    )


def slip_void(
    *,
    slip_type: str,
    slip_number: int,
    reason: str,
    requested_by: User,
    approver: User,
    note: str = "",
    idempotency_key: str | None = None,
) -> TableEvent:
    """Void a slip at whatever step it reached; it keeps its number and both names and is
    marked VOID. Four eyes: the approving pit boss is not the one who asked, and both are
    signed-in users. Locks the slip's table."""
    slip = _slip(slip_type, slip_number)
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidInputError("Say why the slip is void.", code="missing_reason")
    with transaction.atomic():
        table = lock_table(slip.table_id)
        policy.check(requested_by, "slip.void_request", table)
        four_eyes.check_decider("slip.void_approve", requester=requested_by, decider=approver)
        key = ShiftKey(slip.gaming_day, slip.shift)
        kind = _slip_type(slip.slip_type)
        void = SlipVoided(
            kind, slip.number, reason.strip(), requested_by.username, approver.username
        )
        after = fold(shift_ledger(table, key), void)
        return append_custody(
            table, key, void, approver, SYSTEM, None, idempotency_key, state=after
        )


def _validate_void(table: Table, data: Mapping[str, Any]) -> None:
    slip = _slip(str(data.get("slip_type", "")), _whole(data.get("slip_number")))
    if slip.table_id != table.pk:
        raise InvalidInputError("That slip belongs to another table.", code="unknown_slip")
    if slip.voided:
        raise NotAllowedNowError("This slip is already void.", code="slip_already_voided")


def _apply_void(correction: CorrectionRequest, approver: User, note: str) -> TableEvent:
    data = correction.command["data"]
    return slip_void(
        slip_type=data["slip_type"],
        slip_number=data["slip_number"],
        reason=correction.reason,
        requested_by=correction.requested_by,
        approver=approver,
        note=note,
    )


def _whole(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError("A slip number is a whole number.", code="unknown_slip")
    return value


VOID_SLIP = "void_slip"
register_service_correction(
    VOID_SLIP,
    ServiceCorrection(
        request_rule="slip.void_request",
        approve_rule="slip.void_approve",
        validate=_validate_void,
        apply=_apply_void,
    ),
)


def _slip(slip_type: str, slip_number: int) -> Slip:
    slip = Slip.objects.filter(slip_type=_slip_type(slip_type), number=slip_number).first()
    if slip is None:
        raise InvalidInputError(
            f"There is no {slip_type} slip number {slip_number}.", code="unknown_slip"
        )
    return slip


def _counted_chips(
    ledger: CustodyState, table: Table, slip: Slip, amounts: Mapping[Any, Any] | None
) -> Mapping[int, int]:
    """What the signer counted: the amounts they sent, or else the request as it stands (a
    slip that is not waiting for a step gets no chips, and the ledger says why)."""
    if amounts is not None:
        return chips_from_amounts(chips_from_payload(amounts), table_denominations(table))
    pending = ledger.slips.pending_slip(slip.slip_type, slip.number)
    return pending.chips if pending is not None else {}


def _slip_type(value: str) -> SlipType:
    for kind in SLIP_TYPES:
        if value == kind:
            return kind
    raise InvalidInputError("A slip is a fill or a credit.", code="unknown_slip_type")


def _next_slip_number(slip_type: str) -> int:
    """The next number of the floor's series; a refused slip rolls the allocation back."""
    SlipSeries.objects.get_or_create(slip_type=slip_type)  # the migration made it; a flush may not
    series = SlipSeries.objects.select_for_update().get(slip_type=slip_type)
    series.last_number += 1
    series.save(update_fields=["last_number"])
    return series.last_number
