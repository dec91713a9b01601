"""The signed-in user behind a request (the policy decides what they may do)."""

from __future__ import annotations

from django.contrib.auth.models import User
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request


def acting_user(request: Request) -> User:
    """The signed-in user; the view's permission classes already refused anonymous calls."""
    user = request.user
    if not isinstance(user, User):
        raise NotAuthenticated()
    return user
