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
    assert text.count(" final ") == 3
    assert Table.objects.filter(game=Table.Game.SEVEN_CARD_STUD).count() == 1
    assert Report.objects.filter(kind="table_shift", provisional=False).count() == 2
    assert set(Report.objects.values_list("kind", flat=True)) == set(Report.Kind.values)


def test_the_reports_can_be_queued_as_jobs_instead(eager_celery: None) -> None:
    out = io.StringIO()
    call_command("simulate_shift", tables=1, rounds=0, seed=5, queue=True, stdout=out)
    assert out.getvalue().count("queued") == 3
    assert JobRun.objects.filter(status=JobRun.Status.SUCCEEDED, kind="audit").count() == 1


def test_a_shift_that_is_not_on_the_floor_is_refused() -> None:
    with pytest.raises(CommandError, match="unknown_shift"):
        call_command("simulate_shift", tables=1, rounds=0, gaming_day="2026-01-01", shift="x")
