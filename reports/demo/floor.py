"""The demo floor's finished shift: played once, so a newcomer sees reports straight away."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from reports.demo.shift import Staff, simulate_shift
from reports.models import Report
from tables.models import Table, TableEvent
from tables.services import custody
from tables.services.floor import is_current_dealer

DEMO_TABLE_NAMES = ("SyM-1", "SyM-2", "Stud-1", "Stud-2")
DEMO_ROUNDS = 3
DEMO_SEED = 2026


def ensure_demo_shift() -> Report | None:
    """Play the last ended shift on the demo tables and store its reports, then reopen the
    tables for the current shift with the closers carried over. Does nothing when the demo
    tables already have custody on their logs (seed_demo stays idempotent)."""
    tables = list(Table.objects.filter(name__in=DEMO_TABLE_NAMES).order_by("name"))
    if (
        not tables
        or TableEvent.objects.filter(table__in=tables, type__startswith="custody.").exists()
    ):
        return None
    staff = Staff(
        dealer=User.objects.get(username="dealer1"),
        pit_boss=User.objects.get(username="pitboss1"),
        other_pit_boss=User.objects.get(username="pitboss2"),
        cashier=User.objects.get(username="cashier1"),
    )
    with transaction.atomic():
        key, _ = simulate_shift(tables, rounds=DEMO_ROUNDS, seed=DEMO_SEED, staff=staff)
        for table in tables:
            spell = table.assignments.filter(ended_at__isnull=True).first()
            dealer = spell.dealer if spell is not None else staff.dealer
            custody.custody_open(table_id=table.pk, pit_boss=staff.pit_boss, carry_over=True)
            if is_current_dealer(dealer, table):
                custody.count_confirm(table_id=table.pk, dealer=dealer, closing=False)
    return Report.objects.filter(
        kind=Report.Kind.FLOOR_SUMMARY, gaming_day=key.gaming_day, shift=key.shift
    ).first()
