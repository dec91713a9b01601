"""The API's one permission class, read from the policy's declaration (`tables.policy`).

A view names the command each of its methods sends (`policy_commands`, or `policy_game` and
`policy_command` for a game's command); the class lets through the roles the declaration
names. The rest of the policy (a dealer at his own table, a held round, a shoe feeding the
table, four eyes) is checked by the service under the table lock.
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from tables import policy
from tables.api.bounds import MAX_ID
from tables.policy.checks import not_your_role
from tables.policy.rules import Rule


def declared_rule(view: Any, method: str) -> Rule | None:
    game = getattr(view, "policy_game", None)
    if game is not None:
        return policy.rule(view.policy_command, game)
    commands: dict[str, str] = getattr(view, "policy_commands", {})
    name = commands.get(method)
    return policy.rule(name) if name is not None else None


class Declared(BasePermission):
    """Allow the roles the policy declares for the view's command (refuse undeclared ones)."""

    message = "Your role does not allow this."

    def has_permission(self, request: Request, view: Any) -> bool:
        check_path_ids(getattr(view, "kwargs", {}))
        if not request.user or not request.user.is_authenticated:
            return False
        method = "GET" if request.method in ("HEAD", "OPTIONS") else str(request.method)
        if not hasattr(view, method.lower()):
            return True  # DRF answers 405 for a method the view does not take
        declared = declared_rule(view, method)
        if declared is None:
            return False
        if not policy.may_send(request.user, declared):
            self.message = not_your_role(declared)
            return False
        return True


def check_path_ids(kwargs: dict[str, Any]) -> None:
    """An id in the address past the database's 64-bit integers is a 400 naming it."""
    for name, value in kwargs.items():
        if isinstance(value, int) and not 0 <= value <= MAX_ID:
            raise ValidationError({name: [f"{name} must be a whole number from 0 to {MAX_ID}."]})


def described(*names: str, game: str | None = None) -> str:
    """The OpenAPI description of an operation: who may call it, from the declaration."""
    return " ".join(policy.rule(name, game).sentence() for name in names)
