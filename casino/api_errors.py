"""One mapping from every refusal to the uniform error body {"code", "detail", "fields"}.

Dealers' tablets and the shoe reader branch on `code`; `detail` is the sentence shown to a
person. Rule errors from the engine keep their own code and status.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from tables.engine.errors import RuleError
from tables.refusals import sentence_for

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


def uniform_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RuleError):
        return Response(error_body(exc.code, sentence_for(exc)), status=exc.status)
    response = exception_handler(exc, context)
    if response is None:
        return None
    code = next((c for kind, c in DRF_CODES.items() if isinstance(exc, kind)), "request_refused")
    if isinstance(exc, exceptions.ValidationError):
        fields = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        response.data = error_body(code, "Some fields are missing or invalid.", dict(fields))
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


def server_error(request: HttpRequest) -> JsonResponse:
    return _json_error(
        "server_error",
        "Something went wrong on the server; nothing was recorded. Please try again.",
        status.HTTP_500_INTERNAL_SERVER_ERROR,
    )


def csrf_failure(request: HttpRequest, reason: str = "") -> JsonResponse:
    return _json_error(
        "csrf_failed", "The form expired or came from elsewhere; reload and try again.", 403
    )
