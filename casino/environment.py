"""Reading and checking the environment variables the settings are built from.

Each failure names the variable, because the person reading it is starting a service,
not reading a traceback.
"""

from __future__ import annotations

import copy
import os
from typing import Any
from urllib.parse import urlparse

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

# Writers on one table queue up behind SQLite's single write lock instead of failing.
SQLITE_OPTIONS = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
PREPARE_ONLY_ON_REQUEST = 2**62
TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})


def env_flag(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name} must be one of 1/0, true/false, yes/no, on/off; got {raw!r}."
    )


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number; got {raw!r}.") from None


def database_from_url(url: str) -> dict[str, Any]:
    """A Django DATABASES entry from DATABASE_URL; only PostgreSQL and SQLite are supported."""
    parsed = urlparse(url)
    if parsed.scheme not in {"postgres", "postgresql", "sqlite"}:
        raise ImproperlyConfigured(
            "DATABASE_URL must look like postgres://user@host:5432/dbname "
            f"(or sqlite:///path); got scheme {parsed.scheme or 'none'!r}."
        )
    if parsed.scheme != "sqlite" and not (parsed.hostname and parsed.path.strip("/")):
        raise ImproperlyConfigured(
            "DATABASE_URL must name a host and a database, like postgres://user@host:5432/dbname."
        )
    try:
        config: dict[str, Any] = dict(dj_database_url.parse(url, conn_max_age=600))
    except Exception as error:  # the parser raises several types for one cause: a bad URL
        raise ImproperlyConfigured(f"DATABASE_URL could not be read: {error}") from None
    if parsed.scheme == "sqlite":
        config["OPTIONS"] = dict(SQLITE_OPTIONS)
    else:
        # Persistent connections need a liveness check so a restarted server does not
        # surface as an error on the first request after it.
        config["CONN_HEALTH_CHECKS"] = True
        # Server-side prepared statements only where the code asks for them (the event-log
        # append, tables/services/append_statements.py). Django turns them off altogether
        # for connection poolers that do not keep them; no pooler stands between this
        # service and its database. psycopg prepares a query on request, or once it has run
        # `prepare_threshold` times: a threshold no query reaches leaves the rest unprepared.
        config["OPTIONS"] = {"prepare_threshold": PREPARE_ONLY_ON_REQUEST}
    return config


def checked_redis_url(url: str) -> str:
    parsed = urlparse(url)
    if parsed.scheme not in {"redis", "rediss"} or not parsed.hostname:
        raise ImproperlyConfigured(f"REDIS_URL must look like redis://host:6379/0; got {url!r}.")
    try:
        parsed.port  # noqa: B018 - raises ValueError on a non-numeric port
    except ValueError:
        raise ImproperlyConfigured(f"REDIS_URL has an invalid port: {url!r}.") from None
    return url


def replica_database(url: str, primary: dict[str, Any]) -> dict[str, Any]:
    """The DATABASES entry of the primary's streaming replica, from DATABASE_REPLICA_URL.

    It connects as the primary does (the same pool, the same prepared-statement rule), and
    the test runner makes no database of its own for it: in tests it is the primary's mirror."""
    if not primary["ENGINE"].endswith("postgresql"):
        raise ImproperlyConfigured(
            "DATABASE_REPLICA_URL needs DATABASE_URL to point at the PostgreSQL primary."
        )
    if urlparse(url).scheme not in {"postgres", "postgresql"}:
        raise ImproperlyConfigured(
            "DATABASE_REPLICA_URL must look like postgres://user@replica-host:5432/dbname."
        )
    replica = database_from_url(url)
    for name in ("CONN_MAX_AGE", "CONN_HEALTH_CHECKS"):
        replica[name] = primary[name]
    replica["OPTIONS"] = copy.deepcopy(primary["OPTIONS"])
    replica["TEST"] = {"MIRROR": "default"}
    return replica
