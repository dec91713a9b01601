"""A request that gets no database connection from the pool in time is told to try again
(503, Retry-After, the stable code `server_busy`, in the reader's language), never a 500."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.handlers.exception import convert_exception_to_response
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory
from django.utils import translation
from psycopg_pool import ConnectionPool


def conninfo() -> str:
    return os.environ["DATABASE_URL"].replace("postgres://", "postgresql://", 1)


@pytest.fixture
def full_pool() -> Iterator[ConnectionPool]:
    """A real pool of one connection, already taken: the next caller waits and gives up."""
    pool = ConnectionPool(conninfo(), min_size=1, max_size=1, timeout=0.05, open=True)
    held = pool.getconn(timeout=30)  # the pool's own wait is short; its first connect may not be
    yield pool
    pool.putconn(held)
    pool.close()


def serve(pool: ConnectionPool, language: str) -> Any:
    def view(request: HttpRequest) -> HttpResponse:
        with connection.wrap_database_errors:  # as Django wraps its own connect
            pool.getconn()
        return HttpResponse("unreachable")

    with translation.override(language):
        return convert_exception_to_response(view)(RequestFactory().post("/api/tables/1/x"))


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en", "The server is busy; nothing was recorded. Try again in a moment."),
        ("es", "El servidor está ocupado; no se registró nada. Inténtelo de nuevo en un momento."),
        ("pt-br", "O servidor está ocupado; nada foi registrado. Tente novamente em instantes."),
    ],
)
def test_no_connection_in_time_is_busy_not_a_server_error(
    full_pool: ConnectionPool, language: str, sentence: str
) -> None:
    response = serve(full_pool, language)
    assert response.status_code == 503
    assert response["Retry-After"] == "1"
    assert json.loads(response.content) == {"code": "server_busy", "detail": sentence, "fields": {}}


def test_any_other_fault_stays_a_server_error_in_the_reader_s_language() -> None:
    def view(request: HttpRequest) -> HttpResponse:
        raise RuntimeError("a fault of the service")

    with translation.override("es"):
        response: Any = convert_exception_to_response(view)(RequestFactory().get("/api/live"))
    assert response.status_code == 500
    body = json.loads(response.content)
    assert body["code"] == "server_error"
    assert body["detail"].startswith("Algo falló en el servidor")
