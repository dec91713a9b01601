"""A web worker's heap, settled once it has loaded: what it imported at start is moved out of
the garbage collector's sight.

A full collection walks every object still tracked, and a loaded worker holds a few hundred
thousand of them (Django, the project, their modules and caches) that live as long as the
process: each full collection walked them all, under load several times a minute, holding
the interpreter from the requests. `gc.freeze()` puts them in a generation the collector
never walks. The URL conf is loaded first, so the views it imports are among them, not
first met by a request.
"""

from __future__ import annotations

import gc

from django.urls import get_resolver


def settle() -> int:
    """Load what the first request would, collect once, and freeze the rest: how many
    objects are frozen."""
    get_resolver().url_patterns  # noqa: B018 (imports every view, as the first request would)
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
