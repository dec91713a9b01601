"""The answer to a locked-out sign-in, the same for the API and the admin's login page."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from casino.api_errors import error_body

LOCKED_OUT = "locked_out"


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> JsonResponse:
    cool_off_seconds = int(settings.AXES_COOLOFF_TIME.total_seconds())
    minutes = max(1, cool_off_seconds // 60)
    body = error_body(
        LOCKED_OUT,
        f"Too many wrong passwords for this name from this device; try again in {minutes} "
        "minutes or ask a pit boss to have the sign-in unlocked.",
    )
    response = JsonResponse(body, status=settings.AXES_HTTP_RESPONSE_CODE)
    response["Retry-After"] = str(cool_off_seconds)
    return response
