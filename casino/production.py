"""The production guard: a casino floor never runs on development shortcuts."""

from __future__ import annotations

from cryptography.fernet import Fernet
from django.core.exceptions import ImproperlyConfigured

KNOWN_ENVIRONMENTS = frozenset({"development", "test", "production"})
MIN_SECRET_KEY_LENGTH = 50


def refuse_unsafe_production(
    *,
    env: str,
    database_engine: str,
    tasks_eager: bool,
    secret_key: str,
    default_secret_key: str,
    debug: bool,
) -> None:
    """Raise ImproperlyConfigured naming every unsafe setting when CASINO_ENV=production."""
    if env not in KNOWN_ENVIRONMENTS:
        raise ImproperlyConfigured(
            f"CASINO_ENV must be one of {', '.join(sorted(KNOWN_ENVIRONMENTS))}; got {env!r}."
        )
    if env != "production":
        return
    problems = []
    if database_engine.endswith("sqlite3"):
        problems.append("DATABASE_URL must point at PostgreSQL (SQLite is for development only)")
    if tasks_eager:
        problems.append("REDIS_URL must be set so Celery runs on workers, not eagerly in-process")
    if not secret_key or secret_key == default_secret_key:
        problems.append("SECRET_KEY must be set to a private value")
    elif len(secret_key) < MIN_SECRET_KEY_LENGTH:
        problems.append(f"SECRET_KEY must be at least {MIN_SECRET_KEY_LENGTH} characters")
    if debug:
        problems.append("DEBUG must be off")
    if problems:
        raise ImproperlyConfigured(
            "Refusing to start with CASINO_ENV=production: " + "; ".join(problems) + "."
        )


def refuse_unsafe_field_key(*, env: str, field_key: str, default_field_key: str) -> None:
    """CASINO_FIELD_KEY must be Fernet keys (32 url-safe base64 bytes each), and on a casino
    floor not the development key that ships with the code."""
    keys = [key.strip() for key in field_key.split(",") if key.strip()]
    for key in keys:
        try:
            Fernet(key)
        except ValueError:
            raise ImproperlyConfigured(
                "CASINO_FIELD_KEY must be one or more comma-separated Fernet keys "
                "(32 bytes in url-safe base64, e.g. from Fernet.generate_key())."
            ) from None
    if env == "production" and (not keys or default_field_key in keys):
        raise ImproperlyConfigured(
            "Refusing to start with CASINO_ENV=production: CASINO_FIELD_KEY must be set to a "
            "private key (the development key is public)."
        )
