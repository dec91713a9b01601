"""Settings come from the environment; unsafe production settings stop start-up."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from casino.environment import PREPARE_ONLY_ON_REQUEST, checked_redis_url, database_from_url
from casino.production import refuse_unsafe_field_key, refuse_unsafe_production

PROJECT = Path(__file__).resolve().parents[2]
GOOD_SECRET = "k3y-Fq9vR2mZ8pL4sT7wX1cV6bN0hJ5gD3aE9uY2iO8rW4qK7zM1nB6-prod"
GOOD_FIELD_KEY = "q0Yb3m5c1xPZk8vVtYd2n9R6fW4sLhJ7uAeGiK0oQ1M="


def run_check(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    clean.update(CASINO_VAR_DIR=str(tmp_path), **env)
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=PROJECT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_malformed_database_url_names_the_variable() -> None:
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        database_from_url("mysql://nobody")
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        database_from_url("postgres://")


def test_postgres_url_gets_persistent_checked_connections() -> None:
    config = database_from_url("postgres://postgres@127.0.0.1:5432/test")
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert config["CONN_MAX_AGE"] == 600
    assert config["CONN_HEALTH_CHECKS"] is True
    # Prepared statements where the code asks for them, never by repetition alone.
    assert config["OPTIONS"] == {"prepare_threshold": PREPARE_ONLY_ON_REQUEST}


def test_a_sqlite_url_keeps_the_write_lock_options(tmp_path: Path) -> None:
    config = database_from_url(f"sqlite:///{tmp_path}/floor.sqlite3")
    assert config["OPTIONS"] == {"timeout": 20, "transaction_mode": "IMMEDIATE"}


def test_malformed_redis_url_names_the_variable() -> None:
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL"):
        checked_redis_url("http://localhost")
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL"):
        checked_redis_url("redis://localhost:port/0")


def test_production_refuses_every_unsafe_setting_at_once() -> None:
    with pytest.raises(ImproperlyConfigured) as refused:
        refuse_unsafe_production(
            env="production",
            database_engine="django.db.backends.sqlite3",
            tasks_eager=True,
            secret_key="dev",
            default_secret_key="dev",
            debug=True,
        )
    message = str(refused.value)
    for expected in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG"):
        assert expected in message


def test_production_accepts_safe_settings() -> None:
    refuse_unsafe_production(
        env="production",
        database_engine="django.db.backends.postgresql",
        tasks_eager=False,
        secret_key=GOOD_SECRET,
        default_secret_key="dev",
        debug=False,
    )


def test_start_up_stops_on_a_malformed_database_url(tmp_path: Path) -> None:
    result = run_check(tmp_path, DATABASE_URL="not-a-url")
    assert result.returncode != 0
    assert "DATABASE_URL" in result.stderr


def test_start_up_stops_on_a_malformed_redis_url(tmp_path: Path) -> None:
    result = run_check(tmp_path, REDIS_URL="localhost:6379")
    assert result.returncode != 0
    assert "REDIS_URL" in result.stderr


def test_production_on_the_embedded_default_refuses_to_start(tmp_path: Path) -> None:
    result = run_check(tmp_path, CASINO_ENV="production", SECRET_KEY=GOOD_SECRET)
    assert result.returncode != 0
    assert "Refusing to start with CASINO_ENV=production" in result.stderr


def test_check_deploy_passes_with_production_variables(tmp_path: Path) -> None:
    clean = dict(os.environ)
    clean.update(
        CASINO_VAR_DIR=str(tmp_path),
        CASINO_ENV="production",
        SECRET_KEY=GOOD_SECRET,
        CASINO_FIELD_KEY=GOOD_FIELD_KEY,
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/test",
        REDIS_URL="redis://127.0.0.1:6379/0",
        ALLOWED_HOSTS="casino.example",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=PROJECT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr


def test_embedded_default_uses_sqlite_eager_tasks_and_local_memory(tmp_path: Path) -> None:
    code = (
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER,"
        " s.CACHES['default']['BACKEND'], s.DEBUG, s.USE_TZ, s.TIME_ZONE)"
    )
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    clean.update(CASINO_VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="casino.settings")
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup();" + code],
        cwd=PROJECT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.stdout.split() == [
        "django.db.backends.sqlite3",
        "True",
        "django.core.cache.backends.locmem.LocMemCache",
        "False",
        "True",
        "UTC",
    ], result.stderr


def test_production_refuses_the_development_field_key() -> None:
    from casino.settings import DEVELOPMENT_FIELD_KEY

    with pytest.raises(ImproperlyConfigured, match="CASINO_FIELD_KEY"):
        refuse_unsafe_field_key(
            env="production",
            field_key=DEVELOPMENT_FIELD_KEY,
            default_field_key=DEVELOPMENT_FIELD_KEY,
        )
    with pytest.raises(ImproperlyConfigured, match="CASINO_FIELD_KEY"):
        refuse_unsafe_field_key(
            env="production", field_key="", default_field_key=DEVELOPMENT_FIELD_KEY
        )
    refuse_unsafe_field_key(
        env="production", field_key=GOOD_FIELD_KEY, default_field_key=DEVELOPMENT_FIELD_KEY
    )
    refuse_unsafe_field_key(
        env="development", field_key=DEVELOPMENT_FIELD_KEY, default_field_key=DEVELOPMENT_FIELD_KEY
    )


def test_a_malformed_field_key_names_the_variable(tmp_path: Path) -> None:
    result = run_check(tmp_path, CASINO_FIELD_KEY="not-a-key")
    assert result.returncode != 0
    assert "CASINO_FIELD_KEY" in result.stderr
