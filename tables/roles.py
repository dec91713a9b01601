"""The people who use the floor, as Django groups (created by a data migration)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

DEALER = "dealer"
PIT_BOSS = "pit_boss"
CASHIER = "cashier"
AUDITOR = "auditor"
ADMIN = "admin"
ALL_ROLES = (DEALER, PIT_BOSS, CASHIER, AUDITOR, ADMIN)
# Where a request's user keeps its role names (token authentication reads them with the user).
CACHE_ATTRIBUTE = "_casino_roles"


def roles_of(user: AbstractBaseUser | AnonymousUser) -> frozenset[str]:
    """The role names a user holds; cached on the user object for the request."""
    if not user.is_authenticated:
        return frozenset()
    cached: frozenset[str] | None = getattr(user, CACHE_ATTRIBUTE, None)
    if cached is None:
        cached = frozenset(user.groups.values_list("name", flat=True))  # type: ignore[attr-defined]
        setattr(user, CACHE_ATTRIBUTE, cached)  # a per-request cache on the user
    return cached


def has_role(user: AbstractBaseUser | AnonymousUser, *roles: str) -> bool:
    return not roles_of(user).isdisjoint(roles)
