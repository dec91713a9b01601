"""Who may sign a custody record: a known person holding the role the signature asks for."""

from __future__ import annotations

from django.contrib.auth.models import User

from tables import roles
from tables.engine.errors import InvalidInputError


def check_signer(username: str, role: str) -> User:
    if not isinstance(username, str) or not username.strip():
        raise InvalidInputError("Every signature is required.", code="missing_signature")
    user = User.objects.filter(username=username, is_active=True).first()
    if user is None:
        raise InvalidInputError(f"Nobody called {username!r} works here.", code="unknown_signer")
    if not roles.has_role(user, role):
        raise InvalidInputError(
            f"{username} cannot sign as {role.replace('_', ' ')}.", code="signer_without_role"
        )
    return user
