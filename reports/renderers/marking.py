"""How a rendering says that a report is provisional or a reprint, in the same words everywhere."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def markings(document: Mapping[str, Any]) -> list[str]:
    """The banners a rendering must show: PROVISIONAL with its reasons, REPRINT with its version."""
    banners = []
    if document["provisional"]:
        reasons = ", ".join(document["provisional_reasons"])
        banners.append(f"PROVISIONAL ({reasons})")
    if document["reprint"]:
        banners.append(f"REPRINT (version {document['version']})")
    return banners


def status_text(document: Mapping[str, Any]) -> str:
    return "; ".join(markings(document)) or "FINAL"
