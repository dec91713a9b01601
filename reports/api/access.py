"""Who sees which reports: cashiers the cashier report, pit bosses the table and floor
reports, auditors everything, dealers nothing."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from rest_framework.exceptions import PermissionDenied

from reports import kinds
from tables import roles


def visible_kinds(user: AbstractBaseUser | AnonymousUser) -> frozenset[str]:
    """The auditor sees every kind; anyone else the kinds that name one of his roles."""
    held = roles.roles_of(user)
    if roles.AUDITOR in held:
        return frozenset(kinds.keys())
    return frozenset(kind.key for kind in kinds.registered() if kind.seen_by & held)


def check_can_see(user: AbstractBaseUser | AnonymousUser, kind: str) -> None:
    if kind not in visible_kinds(user):
        raise PermissionDenied("Your role does not allow this report.")
