"""manage.py serve_demo [addrport]: the development server with the demo shoe of SyM-1 dealing.

Starts the simulated shoe and its reader (`run_shoe`) as child processes on the shoe's registry
port, then runs Django's `runserver` in this process; when the server stops (Ctrl-C, SIGTERM or
an error) the children are stopped too.
"""

from __future__ import annotations

import argparse
import signal
import threading
from pathlib import Path
from types import FrameType
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from devices.demo import demo_serial
from devices.demo_serving import DemoShoe, registry_port
from devices.models import Device
from tables.models import Table

DEMO_SHOE_TABLE = "SyM-1"


class Command(BaseCommand):
    help = "Serve the demo floor: runserver, with the demo shoe of SyM-1 and its reader beside it."

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")
        parser.add_argument("--table", default=DEMO_SHOE_TABLE, help="the table whose shoe deals")
        parser.add_argument(
            "--shoe-port", type=int, default=None, help="TCP port of the shoe's line (registry's)"
        )
        parser.add_argument("--seed", type=int, default=1, help="seed of the shoe's shuffles")

    def handle(self, *args: Any, **options: Any) -> None:
        shoe = self._demo_shoe(options)
        shoe.start()
        self.stdout.write(
            f"Demo shoe {shoe.serial} on {shoe.url}: simulator pid {shoe.children[0].pid}, "
            f"reader pid {shoe.children[1].pid}"
        )
        previous = _stop_on_signals()
        try:
            call_command("runserver", options["addrport"], use_reloader=False)
        except KeyboardInterrupt:
            pass
        finally:
            shoe.stop()
            for signum, handler in previous.items():
                signal.signal(signum, handler)
            self.stdout.write(f"Demo shoe {shoe.serial} stopped.")

    def _demo_shoe(self, options: dict[str, Any]) -> DemoShoe:
        table = Table.objects.filter(name=options["table"]).first()
        if table is None:
            raise CommandError(f"There is no table {options['table']}: run seed_demo first.")
        device = Device.objects.filter(serial=demo_serial(table)).first()
        if device is None:
            raise CommandError(f"Table {table.name} has no demo shoe: run seed_demo first.")
        try:
            port = options["shoe_port"] or registry_port(device)
        except ValueError as error:
            raise CommandError(str(error)) from error
        line_dir = Path(settings.VAR_DIR) / "demo-lines"
        return DemoShoe(device.serial, port, line_dir, seed=options["seed"])


def _stop_on_signals() -> dict[int, Any]:
    """SIGTERM ends runserver as Ctrl-C does, and Ctrl-C does so even where a parent started
    this process with SIGINT ignored, so that the children are stopped on the way out."""
    if threading.current_thread() is not threading.main_thread():
        return {}

    def stop(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    return {signum: signal.signal(signum, stop) for signum in (signal.SIGTERM, signal.SIGINT)}
