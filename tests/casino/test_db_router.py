"""The router without a replica (every run mode but the replica's), and the replica's settings."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import DEFAULT_DB_ALIAS, connections, router

from casino.db_router import REPLICA, read_connection, reading_from_replica, replica_reads
from casino.environment import replica_database
from tables.models import Table


def test_without_a_replica_the_router_leaves_django_its_own_routing() -> None:
    assert REPLICA not in settings.DATABASES
    with replica_reads():
        assert router.db_for_read(Table) == DEFAULT_DB_ALIAS
        assert not reading_from_replica()
        assert read_connection() is connections[DEFAULT_DB_ALIAS]
    assert router.allow_migrate(REPLICA, "tables") is False
    assert router.allow_migrate(DEFAULT_DB_ALIAS, "tables") is True


def test_the_replica_url_makes_a_mirror_of_the_primary_in_tests() -> None:
    pool = {"max_size": 8}
    primary: dict[str, Any] = {
        "ENGINE": "django.db.backends.postgresql", "CONN_MAX_AGE": 0,
        "CONN_HEALTH_CHECKS": False, "OPTIONS": {"pool": pool},
    }  # fmt: skip
    replica = replica_database("postgres://reader@standby:5433/casino", primary)
    assert (replica["HOST"], replica["PORT"], replica["USER"]) == ("standby", 5433, "reader")
    assert replica["TEST"] == {"MIRROR": "default"}
    assert replica["OPTIONS"] == {"pool": {"max_size": 8}}
    assert replica["OPTIONS"]["pool"] is not pool
    sqlite = {"ENGINE": "django.db.backends.sqlite3", "OPTIONS": {}}
    with pytest.raises(ImproperlyConfigured, match="PostgreSQL primary"):
        replica_database("postgres://reader@standby/casino", sqlite)
    with pytest.raises(ImproperlyConfigured, match="DATABASE_REPLICA_URL"):
        replica_database("sqlite:///elsewhere.db", primary)
