"""python manage.py rebuild_projections --table NAME: rebuild a table's projections (rounds,
seats and stacks, alerts, shoe incidents, slips) from its log, through the projector registry."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables.models import Table
from tables.services.custody.replay import CustodyRefusedError
from tables.services.rebuild import rebuild_projections


class Command(BaseCommand):
    help = (
        "Rebuild a table's projections (rounds, seats, alerts, shoe incidents, slips) "
        "from its event log."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--table", required=True, help="the table's name")

    def handle(self, *args: Any, **options: Any) -> None:
        table = Table.objects.filter(name=options["table"]).first()
        if table is None:
            raise CommandError(f"There is no table named {options['table']!r}.")
        try:
            rebuilt = rebuild_projections(table_id=table.pk)
        except CustodyRefusedError as refused:
            raise CommandError(f"Nothing was rebuilt: {refused}") from None
        self.stdout.write(f"{table.name}: {rebuilt} rounds rebuilt from the log")
