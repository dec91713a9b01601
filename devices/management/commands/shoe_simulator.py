"""manage.py shoe_simulator: a simulated shoe on any pyserial URL, for tests and demos."""

import argparse
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from devices.simulator import cli


class Command(BaseCommand):
    help = "Act as a SHOE-LINK card shoe on the given line (see docs/shoe-link-payloads.md)."

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        cli.add_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            runner = cli.run(options)
        except ValueError as error:
            raise CommandError(str(error)) from error
        device = runner.dealer.device
        self.stdout.write(
            f"{runner.dealer.cards_drawn} cards drawn over {device.boots} boot(s); "
            f"faults injected: {device.output.injected}"
        )
        if not runner.finished:
            raise CommandError("stopped before every drawn card was acknowledged")
