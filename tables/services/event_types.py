"""Event types the services write themselves; the engines never see them on replay."""

from __future__ import annotations

SERVICE_PREFIXES = (
    "table.",
    "dealer.",
    "correction.",
    "alert.acknowledged",
    "custody.",
    "device.",
)


def is_engine_event(event_type: str) -> bool:
    return not event_type.startswith(SERVICE_PREFIXES)
