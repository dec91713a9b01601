"""python manage.py simulate_shift plays a shift and leaves its reports."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from reports.models import JobRun, Report
from tables.models import Table

pytestmark = pytest.mark.django_db


def test_a_demo_shift_leaves_final_reports_for_every_table() -> None:
    out = io.StringIO()
    call_command("simulate_shift", tables=2, rounds=1, seed=5, stdout=out)
    text = out.getvalue()
    assert "Sim-01" in text
    assert "Sim-02" in text
    assert text.count("  report ") == 6  # the shift's three and the period's three
    assert text.count(" final ") >= 3
    assert Table.objects.filter(game=Table.Game.SEVEN_CARD_STUD).count() == 1
    _, day, shift = text.splitlines()[0].rstrip(":").split()
    played = Report.objects.filter(kind="table_shift", gaming_day=day, shift=shift)
    assert played.filter(provisional=False).count() == 2
    assert set(Report.objects.values_list("kind", flat=True)) == set(Report.Kind.values)


def test_the_reports_can_be_queued_as_jobs_instead(eager_celery: None) -> None:
    out = io.StringIO()
    call_command("simulate_shift", tables=1, rounds=0, seed=5, queue=True, stdout=out)
    assert out.getvalue().count("queued") == 3
    assert JobRun.objects.filter(status=JobRun.Status.SUCCEEDED, kind="audit").count() == 1


def test_a_shift_that_is_not_on_the_floor_is_refused() -> None:
    with pytest.raises(CommandError, match="unknown_shift"):
        call_command("simulate_shift", tables=1, rounds=0, gaming_day="2026-01-01", shift="x")


def test_after_the_demo_seed_each_run_plays_the_next_free_shift_on_tables_not_in_play() -> None:
    call_command("seed_demo", stdout=io.StringIO())
    in_play = set(Table.objects.values_list("name", flat=True))
    shifts = []
    for _ in range(2):
        out = io.StringIO()
        call_command("simulate_shift", tables=2, rounds=1, seed=5, stdout=out)
        shifts.append(out.getvalue().splitlines()[0])
        assert "SyM-1" not in out.getvalue()
        assert "Stud-1" not in out.getvalue()
    assert shifts[0] != shifts[1]  # the second run took the shift before the first one
    played = set(Table.objects.values_list("name", flat=True)) - in_play
    assert played == {"Sim-01", "Sim-02"}
    # The demo's current shift is still open at every demo table, with its dealer and players.
    for table in Table.objects.filter(name__in=in_play):
        assert table.assignments.filter(ended_at__isnull=True).exists()
        assert table.seats.exclude(player_label="").count() == 5
