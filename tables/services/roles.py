"""Role changes: the only writer of a user's role groups.

A change is a two-person step: an admin asks (`role_grant_request`), a different admin
approves (`role_grant_approve`) or refuses. Nobody asks for or approves a change of his own
roles, and the admin, who configures the floor, holds no operational role: an operational
role is never granted to an admin, nor the admin role to someone holding one. The rows are
never deleted; they are the record of who asked, who decided and why.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import Group, User
from django.db import transaction
from django.utils import timezone

from tables import policy, roles
from tables.models import RoleGrant
from tables.policy import four_eyes
from tables.policy.rules import PolicyError

OPERATIONAL = frozenset({roles.DEALER, roles.PIT_BOSS, roles.CASHIER, roles.AUDITOR})


def role_grant_request(
    *,
    user: User,
    role: str,
    requested_by: User,
    reason: str,
    withdraw: bool = False,
) -> RoleGrant:
    """Ask for `role` to be granted to (or withdrawn from) `user`."""
    policy.check(requested_by, "role.grant_request")
    if role not in roles.ALL_ROLES:
        raise PolicyError(
            f"{role!r} is not a role; the roles are {', '.join(roles.ALL_ROLES)}.",
            code="unknown_role",
            status=422,
        )
    if not reason.strip():
        raise PolicyError("Say why the role changes.", code="reason_required", status=422)
    if user.pk == requested_by.pk:
        raise PolicyError(
            "Nobody asks for a change of his own roles; another admin must ask.",
            code="own_role_change",
        )
    if not withdraw:
        _check_compatible(user, role)
    action = RoleGrant.Action.WITHDRAW if withdraw else RoleGrant.Action.GRANT
    return RoleGrant.objects.create(
        user=user,
        role=role,
        action=action,
        reason=reason.strip(),
        requested_by=requested_by,
        requested_at=timezone.now(),
    )


def role_grant_approve(*, grant_id: int, approver: User, note: str = "") -> RoleGrant:
    """A different admin approves; the user's groups change now. Locks the request."""
    with transaction.atomic():
        grant = _pending(grant_id)
        _check_decider("role.grant_approve", grant, approver)
        group = Group.objects.get_or_create(name=grant.role)[0]
        if grant.action == RoleGrant.Action.GRANT:
            _check_compatible(grant.user, grant.role)
            grant.user.groups.add(group)
        else:
            grant.user.groups.remove(group)
        _decide(grant, RoleGrant.Status.APPROVED, approver, note)
        return grant


def role_grant_refuse(*, grant_id: int, approver: User, note: str = "") -> RoleGrant:
    with transaction.atomic():
        grant = _pending(grant_id)
        _check_decider("role.grant_refuse", grant, approver)
        _decide(grant, RoleGrant.Status.REFUSED, approver, note)
        return grant


def roles_seed(*, user: User, role_names: Iterable[str]) -> None:
    """Set a user's roles with no one asking: only for seeding a floor (a management command,
    the demo), never from a request."""
    user.groups.set(Group.objects.filter(name__in=list(role_names)))
    if hasattr(user, "_casino_roles"):
        delattr(user, "_casino_roles")


def _check_decider(step: str, grant: RoleGrant, approver: User) -> None:
    four_eyes.check_decider(step, requester=grant.requested_by, decider=approver)
    if grant.user_id == approver.pk:
        raise PolicyError(
            "Nobody decides on a change of his own roles; ask another admin.",
            code="own_role_change",
        )


def _check_compatible(user: User, role: str) -> None:
    held = set(Group.objects.filter(user=user).values_list("name", flat=True))
    clash = (role in OPERATIONAL and roles.ADMIN in held) or (
        role == roles.ADMIN and bool(held & OPERATIONAL)
    )
    if clash:
        raise PolicyError(
            "The admin holds no operational role: an admin is never a dealer, pit boss, "
            "cashier or auditor too.",
            code="admin_holds_no_operational_role",
            status=409,
        )


def _pending(grant_id: int) -> RoleGrant:
    # Only the request row is locked: PostgreSQL locks no row across an outer join.
    grant = (
        RoleGrant.objects.select_for_update(of=("self",))
        .select_related("user", "requested_by")
        .filter(pk=grant_id)
        .first()
    )
    if grant is None:
        raise four_eyes.not_found("role change")
    if grant.status != RoleGrant.Status.PENDING:
        raise four_eyes.already_decided("role change")
    return grant


def _decide(grant: RoleGrant, status: str, approver: User, note: str) -> None:
    grant.status = status
    grant.decided_by = approver
    grant.decided_at = timezone.now()
    grant.decision_note = note
    grant.save(update_fields=["status", "decided_by", "decided_at", "decision_note"])
