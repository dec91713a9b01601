"""Four-eyes corrections: requested by one person, approved by a different pit boss.

Approval runs the requested engine command (a void, a payout correction) through the
same path as every command, preceded by a `correction.approved` fact naming both people.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from tables import games, roles
from tables.engine.errors import NotAllowedNowError, RuleError
from tables.models import CorrectionRequest, Table, TableEvent
from tables.services.append import NewFact
from tables.services.commands import (
    CommandOutcome,
    current_round,
    latest_round,
    lock_table,
    record,
    table_command,
)

SYSTEM = TableEvent.Source.SYSTEM


def correction_request(
    *,
    table_id: int,
    command_type: str,
    command_data: Mapping[str, Any],
    reason: str,
    requested_by: User,
) -> CorrectionRequest:
    """Record a request; the command is parsed now so a malformed one is refused at once."""
    if not reason.strip():
        raise RuleError("Say why the correction is needed.", code="reason_required", status=422)
    with transaction.atomic():
        table = lock_table(table_id)
        if table.status != Table.Status.OPEN:
            raise NotAllowedNowError(
                "The table is closed: its rounds can no longer be corrected here.",
                code="table_closed",
            )
        binding = games.binding_for(table.game)
        requester = requested_by.get_username()
        # Parsed now, with the names it will carry, so a malformed request is refused at once.
        _command(binding, command_type, command_data, requester, requester)
        correction = CorrectionRequest.objects.create(
            table=table,
            # The round in play or, between rounds, the last one (whose payouts it corrects).
            round=current_round(table) or latest_round(table),
            command={"type": command_type, "data": dict(command_data)},
            reason=reason,
            requested_by=requested_by,
            requested_at=timezone.now(),
        )
        fact = NewFact("correction.requested", _describe(correction))
        record(table, correction.round, [fact], requested_by, SYSTEM, None, None)
    return correction


def correction_approve(*, correction_id: int, approver: User) -> CommandOutcome:
    """Approve and apply. Locks the table; the engine may still refuse (nothing recorded)."""
    with transaction.atomic():
        correction = _pending_for_decision(correction_id, approver)
        binding = games.binding_for(correction.table.game)
        command = _command(
            binding,
            correction.command["type"],
            correction.command["data"],
            correction.requested_by.get_username(),
            approver.get_username(),
        )
        correction.status = CorrectionRequest.Status.APPROVED
        correction.decided_by = approver
        correction.decided_at = timezone.now()
        correction.save(update_fields=["status", "decided_by", "decided_at"])
        approval = NewFact("correction.approved", _describe(correction))

        def command_for(table: Table) -> Any:
            if correction.round is not None and latest_round(table) != correction.round:
                raise NotAllowedNowError(
                    "Another round has started since this correction was asked for.",
                    code="correction_round_passed",
                )
            return command

        return table_command(
            table_id=correction.table_id,
            command_for=command_for,
            in_round=correction.round,
            actor=approver,
            source=SYSTEM,
            preamble=(approval,),
        )


def correction_refuse(*, correction_id: int, approver: User, note: str = "") -> CorrectionRequest:
    with transaction.atomic():
        correction = _pending_for_decision(correction_id, approver)
        correction.status = CorrectionRequest.Status.REFUSED
        correction.decided_by = approver
        correction.decided_at = timezone.now()
        correction.decision_note = note
        correction.save(update_fields=["status", "decided_by", "decided_at", "decision_note"])
        fact = NewFact("correction.refused", _describe(correction) | {"note": note})
        table = lock_table(correction.table_id)
        record(table, correction.round, [fact], approver, SYSTEM, None, None)
    return correction


def _pending_for_decision(correction_id: int, approver: User) -> CorrectionRequest:
    correction = (
        CorrectionRequest.objects.select_for_update()
        .select_related("table", "requested_by")
        .filter(pk=correction_id)
        .first()
    )
    if correction is None:
        raise NotAllowedNowError(
            "There is no such correction request.", code="correction_not_found"
        )
    if correction.status != CorrectionRequest.Status.PENDING:
        raise NotAllowedNowError(
            f"This request was already {correction.status}.", code="correction_already_decided"
        )
    if not roles.has_role(approver, roles.PIT_BOSS):
        raise RuleError(
            "Only a pit boss may approve or refuse a correction.",
            code="approver_not_pit_boss",
            status=403,
        )
    if correction.requested_by_id == approver.pk:
        raise RuleError(
            "You cannot decide on your own request; ask another pit boss.",
            code="own_request",
            status=403,
        )
    return correction


def _command(
    binding: games.GameBinding,
    command_type: str,
    data: Mapping[str, Any],
    requested_by: str,
    approved_by: str,
) -> Any:
    if command_type not in binding.approval_commands:
        raise RuleError(
            f"{command_type} is not a correction; send it as an ordinary command.",
            code="not_a_correction",
            status=422,
        )
    if command_type in binding.approval_fields:
        data = {**data, "requested_by": requested_by, "approved_by": approved_by}
    return binding.command_from_json(command_type, data)


def _describe(correction: CorrectionRequest) -> dict[str, Any]:
    return {
        "correction_id": correction.pk,
        "command": correction.command,
        "reason": correction.reason,
        "requested_by": correction.requested_by.get_username(),
        "approved_by": correction.decided_by.get_username() if correction.decided_by else None,
    }
