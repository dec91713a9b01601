"""The pit boss's approvals queue: every request waiting for a second person, in one list.

This is the one module through which the floor's pages reach the four-eyes services (the
corrections, among them a slip's void and a settings change, the shoe bindings and the
misread holds), so that a single rule of who may approve what can replace these calls in one
place. The services decide; the queue only shows
the approve button where the service would accept it (never on the viewer's own request).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from devices.models import DeviceBinding, MisreadHold
from devices.registry import enrollment, holds
from reports.pages.cage_queue import cage_slip
from reports.renderers.labels import label
from tables import games, roles
from tables.engine.errors import InvalidInputError
from tables.models import CorrectionRequest, Table
from tables.pages.setting_changes import changes
from tables.services import corrections, engine_state
from tables.services.custody import slips

CORRECTION = "correction"
SLIP_VOID = "slip_void"  # a fill's or credit's void: a correction the slips service carries out
SETTINGS = "settings"  # a settings change the policy gives to a second pit boss
BINDING = "binding"
HOLD = "hold"
KINDS = (CORRECTION, SLIP_VOID, SETTINGS, BINDING, HOLD)
# The kinds that are correction requests, decided by the corrections service.
CORRECTION_KINDS = frozenset({CORRECTION, SLIP_VOID, SETTINGS})


@dataclass(frozen=True)
class Approval:
    kind: str
    approval_id: int
    table_id: int
    table: str
    round_number: int | None
    requested_by: str
    requested_by_id: int | None
    requested_at: datetime
    reason: str
    change: dict[str, Any]  # what approving it changes: a command, a shoe, a card
    refusable: bool  # a misread hold is not refused: the dealer enters the card again
    # What approving it changes, in sentences (a slip's void, old → new settings).
    lines: tuple[str, ...] = ()

    def can_decide(self, viewer: User) -> bool:
        """What the service checks: a pit boss, and not the person who asked."""
        return roles.has_role(viewer, roles.PIT_BOSS) and self.requested_by_id != viewer.pk


def approvals_queue(*, table_id: int | None = None) -> list[Approval]:
    """Every pending request, oldest first (the one waiting longest is on top)."""
    found = [*_corrections(table_id), *_bindings(table_id), *_holds(table_id)]
    return sorted(found, key=lambda approval: (approval.requested_at, approval.kind))


def approval_decide(
    *, kind: str, approval_id: int, viewer: User, approve: bool, note: str = ""
) -> None:
    """Approve or refuse through the kind's own service (which refuses the requester)."""
    if kind in CORRECTION_KINDS:
        if approve:
            corrections.correction_approve(correction_id=approval_id, approver=viewer)
        else:
            corrections.correction_refuse(correction_id=approval_id, approver=viewer, note=note)
    elif kind == BINDING:
        _decide_binding(approval_id, viewer, approve, note)
    elif kind == HOLD and approve:
        holds.hold_approve(hold_id=approval_id, by=viewer)
    else:
        raise InvalidInputError(
            "This request cannot be refused here: the dealer enters the card again.",
            code="not_refusable",
        )


def ask_slip_void(*, slip_type: str, slip_number: int, reason: str, by: User) -> None:
    """A pit boss asks for a slip's void; another pit boss decides it in the queue."""
    slips.slip_void_request(
        slip_type=slip_type, slip_number=slip_number, reason=reason, requested_by=by
    )


def ask_settings_change(*, table: Table, data: dict[str, Any], reason: str, by: User) -> None:
    """A settings change the policy gives to a second pit boss, asked for as a correction."""
    command = games.binding_for(table.game).settings_command
    if command is None:
        raise InvalidInputError(
            "This game's settings are fixed when the table is created.", code="no_settings"
        )
    corrections.correction_request(
        table_id=table.pk, command_type=command, command_data=data, reason=reason, requested_by=by
    )


def _decide_binding(binding_id: int, viewer: User, approve: bool, note: str) -> None:
    if approve:
        enrollment.binding_approve(binding_id=binding_id, by=viewer)
        return
    binding = DeviceBinding.objects.filter(pk=binding_id, approved_at__isnull=True).first()
    if binding is None or binding.ended_at is not None:
        raise InvalidInputError(
            "This binding is not waiting for approval.", code="binding_not_pending"
        )
    if not roles.has_role(viewer, roles.PIT_BOSS) or binding.requested_by_id == viewer.pk:
        raise InvalidInputError(
            "Another pit boss must refuse this binding.", code="same_person_approval"
        )
    enrollment.binding_end(device_id=binding.device_id, by=viewer, reason=note or "refused")


def _corrections(table_id: int | None) -> list[Approval]:
    rows = CorrectionRequest.objects.filter(status=CorrectionRequest.Status.PENDING)
    if table_id is not None:
        rows = rows.filter(table_id=table_id)
    return [_correction(row) for row in rows.select_related("table", "round", "requested_by")]


def _correction(row: CorrectionRequest) -> Approval:
    kind = CORRECTION
    lines: tuple[str, ...] = ()
    command_type = row.command.get("type")
    if command_type == slips.VOID_SLIP:
        kind, lines = SLIP_VOID, _slip_void_lines(row.command.get("data") or {})
    elif command_type == games.binding_for(row.table.game).settings_command:
        kind, lines = SETTINGS, _settings_lines(row.table, row.command.get("data") or {})
    return Approval(
        kind=kind,
        approval_id=row.pk,
        table_id=row.table_id,
        table=row.table.name,
        round_number=row.round.number if row.round else None,
        requested_by=row.requested_by.get_username(),
        requested_by_id=row.requested_by_id,
        requested_at=row.requested_at,
        reason=row.reason,
        change=_command_change(row.command),
        refusable=True,
        lines=lines,
    )


def _slip_void_lines(data: dict[str, Any]) -> tuple[str, ...]:
    slip = cage_slip(str(data.get("slip_type", "")), int(data.get("slip_number") or 0))
    if slip is None:
        return ()
    return (
        _("%(kind)s slip %(number)s (%(total)s, %(stage)s, asked by %(asked)s) becomes VOID.")
        % {
            "kind": label(slip.slip_type),
            "number": slip.number,
            "total": slip.total,
            "stage": label(slip.stage),
            "asked": slip.requested_by or "—",
        },
    )


def _settings_lines(table: Table, data: dict[str, Any]) -> tuple[str, ...]:
    """Old → new for each setting the request changes, against the settings in force now."""
    binding = games.binding_for(table.game)
    proposed = data.get("settings")
    if binding.settings_of is None or not isinstance(proposed, dict):
        return ()
    current = binding.settings_of(engine_state.current_state(table))
    try:
        parsed = binding.parse_settings(proposed)
    except InvalidInputError:
        return ()
    return tuple(str(change) for change in changes(current, parsed))


def _command_change(command: dict[str, Any]) -> dict[str, Any]:
    """The command and its fields; a card named in it stays off the screen (it may be one the
    shoe read of a hand still face down), the pit boss reads it at the table."""
    data = {key: value for key, value in (command.get("data") or {}).items() if key != "card"}
    return {"command": command.get("type"), "data": data}


def _bindings(table_id: int | None) -> list[Approval]:
    rows = DeviceBinding.objects.filter(approved_at__isnull=True, ended_at__isnull=True)
    return [
        _device_request(BINDING, row, row.requested_at, {"device": row.device.serial}, True)
        for row in _at_table(rows, table_id)
    ]


def _holds(table_id: int | None) -> list[Approval]:
    """Only holds whose card the dealer has entered wait for a pit boss."""
    rows = MisreadHold.objects.filter(resolved_at__isnull=True, requested_by__isnull=False)
    # The entered card is the one the shoe could not read; it is dealt face down or up as the
    # unread card was, so the queue shows only that a card was entered.
    return [
        _device_request(
            HOLD,
            row,
            row.opened_at,
            {"device": row.device.serial, "card_entered": bool(row.card)},
            False,
        )
        for row in _at_table(rows, table_id)
    ]


def _at_table(rows: Any, table_id: int | None) -> Any:
    if table_id is not None:
        rows = rows.filter(table_id=table_id)
    return rows.select_related("table", "device", "requested_by")


def _device_request(
    kind: str, row: Any, requested_at: Any, change: dict[str, Any], refusable: bool
) -> Approval:
    """A shoe's request waiting for a pit boss (a binding, a misread hold)."""
    return Approval(
        kind=kind,
        approval_id=row.pk,
        table_id=row.table_id,
        table=row.table.name,
        round_number=None,
        requested_by=row.requested_by.get_username() if row.requested_by else "",
        requested_by_id=row.requested_by_id,
        requested_at=requested_at,
        reason="",
        change=change,
        refusable=refusable,
    )
