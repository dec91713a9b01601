"""The policy tests sign in by force: the personas' passwords are hashed cheaply."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def quick_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
