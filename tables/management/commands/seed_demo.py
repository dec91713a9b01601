"""python manage.py seed_demo: the demo floor and one login per role. Idempotent."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from devices.demo import ensure_demo_shoes
from reports.demo.floor import ensure_demo_shift
from tables.demo.floor import DEMO_TABLES, ensure_demo_players, ensure_demo_tables
from tables.demo.users import ensure_demo_users


class Command(BaseCommand):
    help = "Create the demo floor and one demo user per role (prints the logins)."

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.CASINO_ENV == "production":
            raise CommandError("seed_demo creates known passwords and is refused in production.")
        with transaction.atomic():
            logins = ensure_demo_users()
            tables = ensure_demo_tables()
        self.stdout.write("Demo tables: " + ", ".join(f"{t.name} ({t.game})" for t in tables))
        self.stdout.write("Demo logins (username / password / role):")
        for login in logins:
            self.stdout.write(f"  {login.username:<10} {login.password:<15} {login.role}")
        for shoe in ensure_demo_shoes():
            self.stdout.write(f"Demo shoe {shoe.serial} on {shoe.port_url} ({shoe.status})")
        if (summary := ensure_demo_shift()) is not None:
            self.stdout.write(
                f"Demo shift {summary.gaming_day} {summary.shift} (ended, reports final): "
                "see /api/reports/"
            )
        ensure_demo_players()
        self.stdout.write("Dealers: " + ", ".join(f"{t[4]} at {t[0]}" for t in DEMO_TABLES))
