"""python manage.py verify_log [--table NAME] [--since DATE] [--full]: check chains, replay rounds.

By default each table is walked from its last verified checkpoint (the audit's own start);
`--full` walks every table from seq 1, trusting no checkpoint or snapshot. A sound table
gets a new checkpoint either way.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables.models import Table
from tables.verification import verify_table


def parse_since(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--since must be a date like 2026-11-30; got {text!r}.") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class Command(BaseCommand):
    help = "Re-compute every hash of the table logs and replay every round through the engine."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--table", help="only this table (by name)")
        parser.add_argument("--since", help="only compare rounds opened since this UTC date")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        parser.add_argument(
            "--full", action="store_true", help="walk from seq 1, not from the last checkpoint"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tables = Table.objects.order_by("name")
        if options["table"]:
            tables = tables.filter(name=options["table"])
            if not tables.exists():
                raise CommandError(f"There is no table named {options['table']!r}.")
        since = parse_since(options["since"]) if options["since"] else None
        from_checkpoint = not options["full"]
        results = [
            verify_table(table, since=since, from_checkpoint=from_checkpoint, checkpoint=True)
            for table in tables
        ]
        problems = [problem for result in results for problem in result.problems]
        if options["json"]:
            self.stdout.write(json.dumps([result.as_dict() for result in results], indent=2))
        else:
            for result in results:
                state = "ok" if result.ok else "BROKEN"
                self.stdout.write(
                    f"{result.table}: {state}; {result.events_checked} events checked "
                    f"after seq {result.verified_from_seq}, "
                    f"{result.rounds_replayed} rounds replayed, head seq {result.head_seq} "
                    f"hash {result.head_hash}"
                )
            total_events = sum(result.events_checked for result in results)
            total_rounds = sum(result.rounds_replayed for result in results)
            self.stdout.write(
                f"{len(results)} tables, {total_events} events checked, "
                f"{total_rounds} rounds replayed, {len(problems)} problems"
            )
        if problems:
            raise CommandError("First problem: " + problems[0])
