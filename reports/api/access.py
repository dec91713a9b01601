"""Who sees which reports: cashiers the cashier report, pit bosses the table and floor
reports, auditors everything, dealers nothing."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from rest_framework.exceptions import PermissionDenied

from reports.models import Report
from tables import roles

KINDS_BY_ROLE: dict[str, frozenset[str]] = {
    roles.AUDITOR: frozenset(Report.Kind.values),
    roles.CASHIER: frozenset({Report.Kind.CASHIER}),
    roles.PIT_BOSS: frozenset({Report.Kind.TABLE_SHIFT, Report.Kind.FLOOR_SUMMARY}),
}


def visible_kinds(user: AbstractBaseUser | AnonymousUser) -> frozenset[str]:
    kinds: frozenset[str] = frozenset()
    for role in roles.roles_of(user):
        kinds |= KINDS_BY_ROLE.get(role, frozenset())
    return kinds


def check_can_see(user: AbstractBaseUser | AnonymousUser, kind: str) -> None:
    if kind not in visible_kinds(user):
        raise PermissionDenied("Your role does not allow this report.")
