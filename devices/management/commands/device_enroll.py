"""manage.py device_enroll: register a shoe with a binding waiting for a pit boss's approval."""

from __future__ import annotations

import argparse
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from devices.registry.enrollment import binding_request, device_enroll
from tables.engine.errors import RuleError
from tables.models import Table


class Command(BaseCommand):
    help = (
        "Enrol a card shoe and ask for its binding to a table; a pit boss approves it "
        "through the API or the admin before the shoe's cards reach the table."
    )

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--serial", required=True, help="the shoe's serial number")
        parser.add_argument("--table", required=True, help="the table's name")
        parser.add_argument("--port", required=True, help="pyserial URL of the shoe's line")
        parser.add_argument("--key", default="", help="the shoe's key (tags and challenge)")

    def handle(self, *args: Any, **options: Any) -> None:
        table = Table.objects.filter(name=options["table"]).first()
        if table is None:
            raise CommandError(f"There is no table named {options['table']!r}.")
        try:
            with transaction.atomic():
                device = device_enroll(
                    serial=options["serial"], port_url=options["port"], key=options["key"]
                )
                binding = binding_request(device_id=device.pk, table_id=table.pk, by=None)
        except RuleError as error:
            raise CommandError(error.message) from error
        self.stdout.write(
            f"Enrolled {device.serial} on {device.port_url}; binding {binding.pk} to "
            f"{table.name} waits for a pit boss's approval."
        )
