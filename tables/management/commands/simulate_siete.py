"""python manage.py simulate_siete: a strategy's return to player, by the engine's own rules."""

from __future__ import annotations

import json
from decimal import Decimal
from random import Random
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tables.engine.siete.random_play import simulate_random_play
from tables.engine.siete.simulation import simulate, simulate_settings

DECIMAL_FIELDS = ("returned", "rtp", "rtp_standard_error", "house_edge", "stand_on")


class Command(BaseCommand):
    help = (
        "Simulate Siete y Medio rounds (a fresh single deck per round, every box drawing while "
        "below --stand-on, the bank by its rule, 1 unit per box) and report the return."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rounds", type=int, default=100_000)
        parser.add_argument("--seats", type=int, default=1, help="boxes played each round, 1-6")
        parser.add_argument("--stand-on", default="5", help="stand at this total or more (0.5-7.5)")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--ties", choices=("push", "bank"), default="push")
        parser.add_argument(
            "--via",
            choices=("rules", "engine"),
            default="rules",
            help="rules: the engine's rule functions directly; engine: every command through "
            "decide/evolve (same results, about 70 times slower)",
        )
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument(
            "--random-play",
            action="store_true",
            help="play whole rounds through decide/evolve under table settings drawn at random, "
            "with dealer errors, tablet entries and probes of hidden cards, checking every "
            "invariant (chips, replay, no card twice, disclosure); prints JSON",
        )
        mode.add_argument(
            "--random-settings",
            action="store_true",
            help="play rounds by the rule functions under paytables, tie and breakage rules, "
            "chips and stakes drawn at random, checking every payout; prints JSON",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["random_play"] or options["random_settings"]:
            self._invariants(options)
            return
        try:
            report = simulate(
                options["rounds"],
                options["seats"],
                options["stand_on"],
                Random(options["seed"]),
                ties=options["ties"],
                via=options["via"],
            )
        except ValueError as error:
            raise CommandError(str(error)) from error
        report["seed"] = options["seed"]
        if options["json"]:
            for name in DECIMAL_FIELDS:
                report[name] = float(Decimal(report[name]))
            self.stdout.write(json.dumps(report, sort_keys=True))
            return
        self.stdout.write(
            f"{report['rounds']} rounds, {report['hands']} hands, "
            f"standing on {report['stand_on']}, ties {report['ties']}: return {report['rtp']} "
            f"(± {report['rtp_standard_error']}), house edge {report['house_edge']}"
        )
        for name, count in report["outcomes"].items():
            self.stdout.write(f"  {name:<20} {count}")

    def _invariants(self, options: dict[str, Any]) -> None:
        if options["rounds"] < 1:
            raise CommandError("--rounds must be at least 1.")
        rng = Random(options["seed"])
        if options["random_play"]:
            report = simulate_random_play(options["rounds"], rng)
        else:
            report = simulate_settings(options["rounds"], rng)
        report["seed"] = options["seed"]
        self.stdout.write(json.dumps(report, sort_keys=True))
        if not report["ok"]:
            raise CommandError(f"{len(report['violations'])} invariant violation(s).")
