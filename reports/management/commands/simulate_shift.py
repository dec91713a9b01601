"""python manage.py simulate_shift --tables N --rounds M --seed S: a full demo shift."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from reports.demo.shift import (
    Staff,
    TablePlay,
    shift_reports,
    simulate_shift,
    simulation_tables,
)
from reports.shifts import ShiftKey, parse_shift_key
from reports.tasks import SHIFT_SET, start_run
from tables import roles
from tables.demo.users import ensure_demo_users
from tables.engine.errors import RuleError


class Command(BaseCommand):
    help = (
        "Play one shift on N tables through the services (openers, buy-ins, fills and credits, "
        "rounds with shoe cards, closers, counted drops) and store its reports."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=4)
        parser.add_argument("--rounds", type=int, default=10, help="rounds (hands) per table")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--gaming-day", help="YYYY-MM-DD (default: the last ended shift)")
        parser.add_argument("--shift", help="shift name (with --gaming-day)")
        parser.add_argument(
            "--queue",
            action="store_true",
            help="queue the report jobs (as the beat does) instead of building them here",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.CASINO_ENV == "production":
            raise CommandError("simulate_shift plays demo rounds; it is refused in production.")
        if options["tables"] < 1 or options["rounds"] < 0:
            raise CommandError("Give at least one table and zero or more rounds.")
        try:
            key = None
            if options["gaming_day"] or options["shift"]:
                key = parse_shift_key(options["gaming_day"] or "", options["shift"] or "")
            key, plays = simulate_shift(
                simulation_tables(options["tables"]),
                rounds=options["rounds"],
                seed=options["seed"],
                staff=demo_staff(),
                key=key,
                run_reports=False,
            )
            self._print_plays(key, plays)
            if options["queue"]:
                self._queue_reports(key)
            else:
                self._build_reports(key)
        except RuleError as error:
            raise CommandError(f"{error.code}: {error}") from error

    def _print_plays(self, key: ShiftKey, plays: list[TablePlay]) -> None:
        self.stdout.write(f"Shift {key.gaming_day} {key.shift}:")
        for play in plays:
            self.stdout.write(
                f"  {play.table:<10} {play.rounds:>4} rounds  buy-ins {play.buy_ins:>7}  "
                f"fills {play.fills:>6}  credits {play.credits:>6}  house net {play.house_net:>7}"
            )

    def _build_reports(self, key: ShiftKey) -> None:
        for report in shift_reports(key):
            state = "provisional" if report.provisional else "final"
            self.stdout.write(
                f"  report {report.kind:<14} v{report.version} {state:<11} {report.content_hash}"
            )

    def _queue_reports(self, key: ShiftKey) -> None:
        for kind in SHIFT_SET:
            run = start_run(kind, key)
            self.stdout.write(f"  queued {kind:<14} run {run.pk} (GET /api/reports/runs/{run.pk})")


def demo_staff() -> Staff:
    """The demo floor's people (created if missing)."""
    if not _has(roles.DEALER) or len(_people(roles.PIT_BOSS)) < 2 or not _has(roles.CASHIER):
        ensure_demo_users()
    pit_bosses = _people(roles.PIT_BOSS)
    return Staff(
        dealer=_people(roles.DEALER)[0],
        pit_boss=pit_bosses[0],
        other_pit_boss=pit_bosses[1],
        cashier=_people(roles.CASHIER)[0],
    )


def _people(role: str) -> list[User]:
    return list(User.objects.filter(groups__name=role, is_active=True).order_by("username"))


def _has(role: str) -> bool:
    return bool(_people(role))
