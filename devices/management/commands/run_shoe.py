"""manage.py run_shoe: the reader daemon of one shoe (one process per shoe, never in Celery)."""

from __future__ import annotations

import argparse
import threading
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from devices.link.reader import stop_on_signals
from devices.shoe_daemon import ShoeRun, port_of, run_shoe
from tables.engine.errors import RuleError


class Command(BaseCommand):
    help = (
        "Read a SHOE-LINK card shoe on its port (from the registry, or --port) and record every "
        "card through the table services; stops cleanly on SIGTERM."
    )

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--device", required=True, help="the shoe's serial number")
        parser.add_argument(
            "--port", default=None, help="pyserial URL overriding the registry's port"
        )
        parser.add_argument(
            "--exit-after-idle",
            type=float,
            default=None,
            metavar="SECONDS",
            help="stop when no byte arrives for this long (scripted runs)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        serial = options["device"]
        try:
            url = port_of(serial, options["port"])
        except RuleError as error:
            raise CommandError(error.message) from error
        run = ShoeRun(serial, url)
        if threading.current_thread() is threading.main_thread():
            stop_on_signals(run.stop)
        self.stdout.write(f"Reading shoe {serial} on {url}")
        run_shoe(serial, options["port"], exit_after_idle_s=options["exit_after_idle"], run=run)
        counters = run.counters
        why = "idle line" if run.idle_exit else "stop requested"
        self.stdout.write(
            f"Stopped ({why}): {counters.committed} events committed {dict(counters.verdicts)}, "
            f"{counters.frames_accepted} frames, {counters.duplicates} duplicates, "
            f"{counters.naks_sent} NAKs, {counters.reconnects} reconnects, "
            f"rejected {dict(counters.rejections)}"
        )
