"""Headers on every answer: JSON is never cached (it may hold a table's live state or a
report), and pages may run scripts and styles from this server only (no inline script)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

DEFAULT_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)


class PolicyHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.csp = getattr(settings, "CASINO_CONTENT_SECURITY_POLICY", DEFAULT_CSP)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        content_type = response.get("Content-Type", "")
        if "json" in content_type:
            response["Cache-Control"] = "no-store"
        elif content_type.startswith("text/html") and self.csp:
            response.setdefault("Content-Security-Policy", self.csp)
        return response
