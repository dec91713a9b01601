"""Four-eyes corrections: requested by one person, approved by a different pit boss.

Approval runs the requested engine command (a void, a payout correction, a paytable change)
through the same path as every command, preceded by a `correction.approved` fact naming both
people and the approver's note. Other apps register their own two-person steps on a table
(a slip's void) with `register_service_correction`; they share the request, the decision
and its codes (`tables.policy.four_eyes`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from tables import games, policy
from tables.engine.errors import NotAllowedNowError, RuleError
from tables.models import CorrectionRequest, Table, TableEvent
from tables.policy import four_eyes
from tables.services import engine_state
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


@dataclass(frozen=True)
class ServiceCorrection:
    """A two-person step another service carries out once approved."""

    request_rule: str
    approve_rule: str
    # Checks the request's data now (raises a RuleError); the caller holds the table lock.
    validate: Callable[[Table, Mapping[str, Any]], None]
    # Carries it out: (correction, approver, note) -> the event it recorded.
    apply: Callable[[CorrectionRequest, User, str], TableEvent]


_SERVICE_CORRECTIONS: dict[str, ServiceCorrection] = {}


def register_service_correction(command_type: str, step: ServiceCorrection) -> None:
    _SERVICE_CORRECTIONS[command_type] = step


@dataclass(frozen=True)
class ApprovalOutcome:
    correction: CorrectionRequest
    command: CommandOutcome | None = None
    event: TableEvent | None = None


def correction_request(
    *,
    table_id: int,
    command_type: str,
    command_data: Mapping[str, Any],
    reason: str,
    requested_by: User,
) -> CorrectionRequest:
    """Record a request; the command is parsed now so a malformed one is refused at once.
    Locks the table."""
    if not reason.strip():
        raise RuleError("Say why the correction is needed.", code="reason_required", status=422)
    with transaction.atomic():
        table = lock_table(table_id)
        if table.status != Table.Status.OPEN:
            raise NotAllowedNowError(
                "The table is closed: its rounds can no longer be corrected here.",
                code="table_closed",
            )
        service = _SERVICE_CORRECTIONS.get(command_type)
        if service is not None:
            policy.check(requested_by, service.request_rule, table)
            service.validate(table, command_data)
        else:
            _check_engine_request(table, command_type, command_data, requested_by)
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


def _check_engine_request(
    table: Table, command_type: str, data: Mapping[str, Any], requester: User
) -> None:
    policy.check(requester, "correction.request", table)
    state = engine_state.snapshot(table).state
    if not isinstance(data, Mapping) or not policy.needs_second_person(
        command_type, table, state, data
    ):
        raise RuleError(
            f"{command_type} is not a correction; send it as an ordinary command.",
            code="not_a_correction",
            status=422,
        )
    declared = policy.rule(command_type, table.game)
    if not policy.may_send(requester, declared):
        raise policy.PolicyError(
            f"Your role may not ask for {command_type}.", code="permission_denied"
        )
    binding = games.binding_for(table.game)
    name = requester.get_username()
    # Parsed now, with the names it will carry, so a malformed request is refused at once.
    _command(binding, command_type, data, name, name)


def correction_approve(*, correction_id: int, approver: User, note: str = "") -> ApprovalOutcome:
    """Approve and apply. Locks the table; the rules may still refuse (nothing recorded)."""
    with transaction.atomic():
        correction = _pending(correction_id)
        lock_table(correction.table_id)
        service = _SERVICE_CORRECTIONS.get(correction.command["type"])
        step = service.approve_rule if service is not None else "correction.approve"
        four_eyes.check_decider(step, requester=correction.requested_by, decider=approver)
        _decide(correction, CorrectionRequest.Status.APPROVED, approver, note)
        approval = NewFact("correction.approved", _describe(correction))
        if service is not None:
            table = lock_table(correction.table_id)
            record(table, correction.round, [approval], approver, SYSTEM, None, None)
            event = service.apply(correction, approver, note)
            return ApprovalOutcome(correction, event=event)
        binding = games.binding_for(correction.table.game)
        command = _command(
            binding,
            correction.command["type"],
            correction.command["data"],
            correction.requested_by.get_username(),
            approver.get_username(),
        )

        def command_for(table: Table, _facts: policy.TableFacts | None) -> Any:
            if correction.round is not None and latest_round(table) != correction.round:
                raise NotAllowedNowError(
                    "Another round has started since this correction was asked for.",
                    code="correction_round_passed",
                )
            return command

        outcome = table_command(
            table_id=correction.table_id,
            command_for=command_for,
            in_round=correction.round,
            actor=approver,
            source=SYSTEM,
            preamble=(approval,),
            approved=True,
        )
        return ApprovalOutcome(correction, command=outcome)


def correction_refuse(*, correction_id: int, approver: User, note: str = "") -> CorrectionRequest:
    with transaction.atomic():
        correction = _pending(correction_id)
        table = lock_table(correction.table_id)
        four_eyes.check_decider(
            "correction.refuse", requester=correction.requested_by, decider=approver
        )
        _decide(correction, CorrectionRequest.Status.REFUSED, approver, note)
        fact = NewFact("correction.refused", _describe(correction))
        record(table, correction.round, [fact], approver, SYSTEM, None, None)
    return correction


def _decide(correction: CorrectionRequest, status: str, approver: User, note: str) -> None:
    correction.status = status
    correction.decided_by = approver
    correction.decided_at = timezone.now()
    correction.decision_note = note
    correction.save(update_fields=["status", "decided_by", "decided_at", "decision_note"])


def _pending(correction_id: int) -> CorrectionRequest:
    # Only the request row is locked: PostgreSQL locks no row across an outer join.
    correction = (
        CorrectionRequest.objects.select_for_update(of=("self",))
        .select_related("table", "requested_by")
        .filter(pk=correction_id)
        .first()
    )
    if correction is None:
        raise four_eyes.not_found("correction request")
    if correction.status != CorrectionRequest.Status.PENDING:
        raise four_eyes.already_decided("correction request")
    return correction


def _command(
    binding: games.GameBinding,
    command_type: str,
    data: Mapping[str, Any],
    requested_by: str,
    approved_by: str,
) -> Any:
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
        "note": correction.decision_note,
    }
