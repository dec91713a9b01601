"""The JSON rendering: the document's canonical bytes, the same bytes its content hash covers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reports.builders.document import canonical_json

CONTENT_TYPE = "application/json"


def render_json(document: Mapping[str, Any]) -> bytes:
    return canonical_json(document)
