"""A settled worker's heap: the views imported and what was loaded out of the collector's walk."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
# In a process of its own: freezing the test process's heap would keep its garbage.
SETTLE_AND_REPORT = """
import gc, sys
import django
django.setup()
from casino.worker_heap import settle
assert "tables.api.views_games" not in sys.modules
frozen = settle()
tracked = len(gc.get_objects())
print(frozen, tracked, "tables.api.views_games" in sys.modules)
"""


def test_settling_loads_the_views_and_freezes_what_was_loaded() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SETTLE_AND_REPORT],
        cwd=PROJECT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "casino.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    frozen, tracked, views_loaded = done.stdout.split()
    assert views_loaded == "True"
    # Nearly everything alive is frozen: the collector walks almost nothing of it.
    assert int(frozen) > 50 * max(int(tracked), 1)
