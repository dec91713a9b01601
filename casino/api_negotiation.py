"""DRF's content negotiation, with its answer for the two Accept headers a JSON client sends
given without parsing them.

The tablets and the load client send `Accept: application/json`, `*/*` or nothing. For those,
DRF's negotiation parses the header into media types, orders them by precedence and matches
each against each renderer, to answer what this does at once: the first renderer, when its
media type is exactly `application/json` (for `*/*` DRF gives the renderer's own type, with no
parameters to carry over). Any other header, a `?format=` override, a format suffix, or a view
whose first renderer is not plain JSON (the report downloads) goes through DRF's own
negotiation unchanged. Under the floor load the negotiation was about 1.5 % of a worker's GIL
samples (docs/PERFORMANCE.md, "Around the view").
"""

from __future__ import annotations

from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation

JSON = "application/json"
ANSWERED_AT_ONCE = frozenset({JSON, "*/*"})


class JSONFirstNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self, request: Any, renderers: Any, format_suffix: Any = None
    ) -> tuple[Any, str]:
        if (
            not format_suffix
            and renderers
            and renderers[0].media_type == JSON
            and request.META.get("HTTP_ACCEPT", "*/*") in ANSWERED_AT_ONCE
            and self.settings.URL_FORMAT_OVERRIDE not in request.query_params
        ):
            return renderers[0], JSON
        return super().select_renderer(request, renderers, format_suffix)  # type: ignore[no-any-return]
