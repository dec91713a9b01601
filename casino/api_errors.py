"""One mapping from every refusal to the uniform error body {"code", "detail", "fields"}.

Dealers' tablets and the shoe reader branch on `code`; `detail` is the sentence shown to a
person. Rule errors from the engine keep their own code and status.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError
from django.http import HttpRequest, JsonResponse
from psycopg_pool import PoolTimeout
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from tables.engine.errors import RuleError
from tables.refusals import refusal_sentence, sentence_for

DRF_CODES = {
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    exceptions.ParseError: "malformed_request",
    exceptions.ValidationError: "invalid_input",
}


def error_body(code: str, detail: str, fields: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"code": code, "detail": detail, "fields": fields or {}}


# Values the database cannot hold (a number past 64 bits in the address, a date that does not
# exist): the request is wrong, not the server.
OUT_OF_RANGE = (OverflowError, DataError, DjangoValidationError)
MAX_ID = 2**63 - 1


def first_field_error(fields: Any, path: str = "") -> tuple[str, str]:
    """The first bad field of a validation error (dotted for nested ones) and its sentence."""
    if isinstance(fields, dict):
        for name, inner in fields.items():
            where = f"{path}.{name}" if path else str(name)
            return first_field_error(inner, where)
    if isinstance(fields, list) and fields:
        if all(isinstance(item, str) for item in fields):
            return path, str(fields[0])
        for index, inner in enumerate(fields):
            if inner:
                return first_field_error(inner, f"{path}[{index}]")
    return path, str(fields)


def validation_detail(fields: dict[str, Any]) -> str:
    name, sentence = first_field_error(fields)
    if name in ("", "non_field_errors"):
        return sentence
    return f"{name}: {sentence}"


def _out_of_range(context: dict[str, Any]) -> Response:
    kwargs = context.get("kwargs") or {}
    name = next(
        (key for key, value in kwargs.items() if isinstance(value, int) and value > MAX_ID),
        None,
    )
    fields = {name or "request": ["This value is out of range or not a valid value."]}
    return Response(error_body("invalid_input", validation_detail(fields), fields), status=400)


def uniform_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RuleError):
        return Response(error_body(exc.code, sentence_for(exc)), status=exc.status)
    if isinstance(exc, OUT_OF_RANGE):
        return _out_of_range(context)
    response = exception_handler(exc, context)
    if response is None:
        return None
    code = next((c for kind, c in DRF_CODES.items() if isinstance(exc, kind)), "request_refused")
    if isinstance(exc, exceptions.ValidationError):
        fields = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        response.data = error_body(code, validation_detail(dict(fields)), dict(fields))
    else:
        detail = response.data.get("detail", "") if isinstance(response.data, dict) else ""
        response.data = error_body(code, str(detail))
    return response


def _json_error(code: str, detail: str, status_code: int) -> JsonResponse:
    return JsonResponse(error_body(code, detail), status=status_code)


def not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return _json_error("not_found", "There is nothing at this address.", status.HTTP_404_NOT_FOUND)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return _json_error("bad_request", "The request could not be read.", status.HTTP_400_BAD_REQUEST)


def forbidden(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return _json_error(
        "permission_denied", "You are not allowed to do this.", status.HTTP_403_FORBIDDEN
    )


SERVER_ERROR = "Something went wrong on the server; nothing was recorded. Please try again."
SERVER_BUSY = "The server is busy; nothing was recorded. Try again in a moment."


def server_error(request: HttpRequest) -> JsonResponse:
    """Django's last word on an uncaught exception (it calls this inside its `except`).

    No database connection within the pool's timeout is not a fault of the service but a
    burst past what it was sized for: the client is told to try again, with its idempotency
    key, and a balancer may send that try elsewhere (503, Retry-After)."""
    if _no_connection_now(sys.exc_info()[1]):
        response = _json_error("server_busy", refusal_sentence("server_busy", SERVER_BUSY), 503)
        response["Retry-After"] = "1"
        return response
    return _json_error(
        "server_error",
        refusal_sentence("server_error", SERVER_ERROR),
        status.HTTP_500_INTERNAL_SERVER_ERROR,
    )


def _no_connection_now(error: BaseException | None) -> bool:
    """The pool gave no connection in time: psycopg_pool's PoolTimeout, as Django wraps it."""
    while error is not None:
        if isinstance(error, PoolTimeout):
            return True
        error = error.__cause__
    return False


def csrf_failure(request: HttpRequest, reason: str = "") -> JsonResponse:
    return _json_error(
        "csrf_failed", "The form expired or came from elsewhere; reload and try again.", 403
    )
