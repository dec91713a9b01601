"""Start Django for a benchmark script run from the project root."""

from __future__ import annotations

import os
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent


def setup(require_postgres: bool = False) -> None:
    sys.path.insert(0, str(PROJECT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    if require_postgres and not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("Set DATABASE_URL=postgres://... (a scratch database: benchmarks write to it).")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
