"""python manage.py simulate_stud: play Stud hands through the engine, print the tallies as JSON."""

from __future__ import annotations

import json
import random
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables.engine.errors import RuleError
from tables.engine.stud.simulation import DEFAULT_SETTINGS, POLICIES, simulate


class Command(BaseCommand):
    help = (
        "Play complete Seven-Card Stud hands with random or calling players through the rules "
        "engine, check every invariant, and print one JSON object."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hands", type=int, default=1000)
        parser.add_argument("--players", type=int, default=6)
        parser.add_argument("--policy", choices=POLICIES, default="random")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--table-settings",
            default=None,
            help=f"Table settings as a JSON object (default: {json.dumps(DEFAULT_SETTINGS)}).",
        )
        parser.add_argument(
            "--random-settings",
            action="store_true",
            help="Draw new table settings every hand (explicit antes and bring-ins, every "
            "option) and 2 to --players players, with stacks from below the ante to deep.",
        )
        parser.add_argument("--json", action="store_true", help="Print JSON (the only format).")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["hands"] < 1:
            raise CommandError("--hands must be at least 1.")
        try:
            raw_settings = options["table_settings"]
            table_settings = json.loads(raw_settings) if raw_settings else None
            report = simulate(
                options["hands"],
                options["players"],
                options["policy"],
                random.Random(options["seed"]),
                table_settings,
                random_settings=options["random_settings"],
            )
        except ValueError as error:  # json.JSONDecodeError is a ValueError too
            raise CommandError(str(error)) from error
        except RuleError as error:
            raise CommandError(f"{error.code}: {error.message}") from error
        report["seed"] = options["seed"]
        self.stdout.write(json.dumps(report, sort_keys=True))
        if not report["ok"]:
            raise CommandError(f"{len(report['violations'])} invariant violation(s).")
