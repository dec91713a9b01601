"""Who may act at which table: a dealer only at the table they are assigned to."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.request import Request

from tables import roles
from tables.models import Table
from tables.services.floor import is_current_dealer


def check_can_act_at(user: AbstractBaseUser | AnonymousUser, table: Table) -> None:
    """Pit bosses act at any table; a dealer only at their current assignment."""
    if roles.has_role(user, roles.PIT_BOSS):
        return
    if roles.has_role(user, roles.DEALER) and is_current_dealer(user, table):
        return
    raise PermissionDenied("You are not assigned to this table.")


def acting_user(request: Request) -> User:
    """The signed-in user; the view's permission classes already refused anonymous calls."""
    user = request.user
    if not isinstance(user, User):
        raise NotAuthenticated()
    return user
