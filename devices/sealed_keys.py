"""Shoe keys sealed at rest with the floor's field key (CASINO_FIELD_KEY, Fernet).

A stolen database dump or backup does not give away the secret each shoe signs its frames
with: the column holds a Fernet token, and the key to open it lives in the environment only.
Several comma-separated keys may be set while rotating: the first seals, any of them opens.
"""

from __future__ import annotations

from typing import Any

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import models


def _field_keys() -> MultiFernet:
    keys = [key.strip() for key in str(settings.CASINO_FIELD_KEY).split(",") if key.strip()]
    return MultiFernet([Fernet(key) for key in keys])


def seal(plain: str) -> str:
    return _field_keys().encrypt(plain.encode()).decode() if plain else ""


def unseal(sealed: str) -> str:
    if not sealed:
        return ""
    try:
        return _field_keys().decrypt(sealed.encode()).decode()
    except InvalidToken:
        raise ImproperlyConfigured(
            "A shoe key cannot be opened with CASINO_FIELD_KEY: the key it was sealed with is "
            "missing from that setting (keep the old key listed after the new one while rotating)."
        ) from None


class SealedKeyField(models.TextField):  # type: ignore[type-arg]
    """Plain text in Python, a Fernet token in the database; blank stays blank (no key)."""

    def from_db_value(self, value: str | None, expression: Any, connection: Any) -> str:
        return unseal(value or "")

    def get_prep_value(self, value: Any) -> str:
        return seal(str(value or ""))
