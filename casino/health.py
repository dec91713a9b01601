"""GET /api/health: is this instance able to serve a table right now? And the two cheap
probes a process manager and a load balancer ask: /api/live and /api/ready.

The database is the one hard dependency (503 without it); the broker and the cache are
reported so that a pit boss's dashboard can show a degraded floor before reports fail.
"""

from __future__ import annotations

import functools
import threading
import time
from typing import Any

import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.celery import app as celery_app


def database_state() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # any driver error means the same thing here: down
        return {"ok": False, "vendor": connection.vendor, "error": error.__class__.__name__}
    return {"ok": True, "vendor": connection.vendor}


def broker_state() -> dict[str, Any]:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "mode": "eager"}
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as error:  # kombu wraps many transport errors; all mean unreachable
        return {"ok": False, "mode": "redis", "error": error.__class__.__name__}
    return {"ok": True, "mode": "redis"}


def cache_state() -> dict[str, Any]:
    backend = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    try:
        cache.set("health:probe", "ok", timeout=5)
        ok = cache.get("health:probe") == "ok"
    except Exception as error:  # a cache outage must not take the health page down
        return {"ok": False, "backend": backend, "error": error.__class__.__name__}
    return {"ok": ok, "backend": backend}


class HealthView(APIView):
    permission_classes = (AllowAny,)
    authentication_classes = ()

    @extend_schema(
        summary="Service health",
        responses={
            200: inline_serializer(
                "Health",
                {
                    "status": serializers.CharField(),
                    "database": serializers.DictField(),
                    "broker": serializers.DictField(),
                    "cache": serializers.DictField(),
                },
            ),
            503: None,
        },
    )
    def get(self, request: Request) -> Response:
        database = database_state()
        broker = broker_state()
        cache_info = cache_state()
        healthy = database["ok"] and broker["ok"] and cache_info["ok"]
        body = {
            "status": "ok" if healthy else ("degraded" if database["ok"] else "down"),
            "database": database,
            "broker": broker,
            "cache": cache_info,
        }
        return Response(body, status=200 if database["ok"] else 503)


# --- Probes for the process manager and the load balancer ---------------------------------
# Plain Django views, not DRF: no authentication, negotiation or schema work. A balancer
# asks every second or so, on every node; the answer must cost next to nothing.
READY_CACHE_SECONDS = 1.0
_ready_lock = threading.Lock()
_ready_answer: tuple[float, bool, dict[str, str]] = (0.0, False, {})


def live(request: HttpRequest) -> JsonResponse:
    """GET /api/live: the process answers (no I/O; a hung worker is restarted on failure)."""
    return JsonResponse({"status": "live"})


def ready(request: HttpRequest) -> JsonResponse:
    """GET /api/ready: may this node take traffic? One `SELECT 1` and a Redis ping, kept
    for a second per process so that a storm of probes does not reach the database."""
    global _ready_answer
    now = time.monotonic()
    with _ready_lock:
        checked_at, ok, parts = _ready_answer
        if now - checked_at >= READY_CACHE_SECONDS:
            parts = {"database": _database_ping(), "redis": _redis_ping()}
            ok = all(part in ("ok", "not used") for part in parts.values())
            _ready_answer = (now, ok, parts)
    body = {"status": "ready" if ok else "not ready", **parts}
    return JsonResponse(body, status=200 if ok else 503)


def _database_ping() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # any driver error means the same thing here: down
        return error.__class__.__name__
    return "ok"


def _redis_ping() -> str:
    if not settings.REDIS_URL:
        return "not used"  # the embedded default: local memory, eager tasks
    try:
        _redis_client(settings.REDIS_URL).ping()
    except Exception as error:  # connection refused, timeout, auth: all mean not ready
        return error.__class__.__name__
    return "ok"


@functools.cache
def _redis_client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
