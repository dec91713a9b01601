"""GET /api/health: is this instance able to serve a table right now?

The database is the one hard dependency (503 without it); the broker and the cache are
reported so that a pit boss's dashboard can show a degraded floor before reports fail.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
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
