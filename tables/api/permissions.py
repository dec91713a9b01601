"""Every permission class the API uses, in one place.

Reads and writes are separated because the auditor reads everything and writes nothing;
table-level rules (a dealer acts only at their assigned table) are checked by
`TableAccess`, which the table views call with the table they resolved.
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from tables import roles


class RolePermission(BasePermission):
    """Allow requests from users holding any of `allowed_roles` (reads may widen it)."""

    allowed_roles: tuple[str, ...] = ()
    read_roles: tuple[str, ...] = ()
    message = "Your role does not allow this."

    def has_permission(self, request: Request, view: Any) -> bool:
        if not request.user or not request.user.is_authenticated:
            return False
        wanted = self.allowed_roles
        if request.method in SAFE_METHODS:
            wanted = wanted + self.read_roles
        return roles.has_role(request.user, *wanted)


class IsFloorStaff(RolePermission):
    """Dealers and pit bosses act on tables; auditors and admins may read."""

    allowed_roles = (roles.DEALER, roles.PIT_BOSS)
    read_roles = (roles.AUDITOR, roles.ADMIN)


class IsPitBoss(RolePermission):
    allowed_roles = (roles.PIT_BOSS,)
    read_roles = (roles.AUDITOR, roles.ADMIN)
    message = "Only a pit boss may do this."


class IsCashier(RolePermission):
    allowed_roles = (roles.CASHIER,)
    read_roles = (roles.AUDITOR, roles.PIT_BOSS)
    message = "Only a cashier may do this."


class IsAuditor(RolePermission):
    allowed_roles = (roles.AUDITOR,)
    message = "Only an auditor may see this."


class IsAdmin(RolePermission):
    allowed_roles = (roles.ADMIN,)
    message = "Only an administrator may do this."
