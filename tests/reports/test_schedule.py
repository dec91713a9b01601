"""The beat schedule comes from CASINO_SHIFTS; the shift-end job starts a shift's set once."""

from __future__ import annotations

from typing import Any

import pytest

from casino.celery import app
from reports.builders.period import PERIOD_KINDS
from reports.models import JobRun, Report
from reports.schedule import shift_end_beat_schedule
from reports.shifts import floor_clock
from reports.tasks import (
    audit_table_findings,
    ends_gaming_day,
    shift_end_reports,
    table_shift_report,
)
from tables.models import Table
from tests.reports.custody_floor import Floor, past_shift


def test_every_shift_gets_an_hourly_entry_at_its_start_minute() -> None:
    schedule = shift_end_beat_schedule("day=06:00, swing=14:30,grave=22:00")
    assert set(schedule) == {"reports-after-day", "reports-after-swing", "reports-after-grave"}
    swing = schedule["reports-after-swing"]
    assert swing["task"] == "reports.tasks.shift_end_reports"
    assert swing["kwargs"] == {"ended_shift": "swing"}
    assert swing["schedule"].minute == {30}
    assert swing["schedule"].hour == set(range(24))


def test_the_celery_app_runs_the_schedule_of_the_floor_settings(settings: Any) -> None:
    assert set(app.conf.beat_schedule) == set(shift_end_beat_schedule(settings.CASINO_SHIFTS))


@pytest.mark.django_db
def test_the_shift_end_job_reports_the_shift_that_ended_once(
    floor: Floor, eager_celery: None
) -> None:
    key = past_shift(floor)
    other = next(name for name in floor_clock().shift_names() if name != key.shift)
    assert shift_end_reports(ended_shift=other) == []
    started = shift_end_reports(ended_shift=key.shift)
    # The day's last shift also starts the gaming day's, the month's and the year's totals.
    periods = set(PERIOD_KINDS) if ends_gaming_day(key) else set()
    assert len(started) == 3 + len(periods)
    assert all(
        run.status == JobRun.Status.SUCCEEDED for run in JobRun.objects.filter(pk__in=started)
    )
    expected = set(Report.Kind.values) - set(PERIOD_KINDS) | periods
    assert {report.kind for report in Report.objects.all()} == expected
    assert shift_end_reports(ended_shift=key.shift) == []


@pytest.mark.django_db
def test_a_table_job_that_fails_inside_a_chord_fails_its_run(floor: Floor) -> None:
    key = past_shift(floor)
    run = JobRun.objects.create(kind="floor_summary", detail={"tables": 2})
    with pytest.raises(Table.DoesNotExist):
        table_shift_report(
            None, 999_999, key.gaming_day.isoformat(), key.shift, False, True, str(run.pk)
        )
    with pytest.raises(Table.DoesNotExist):
        audit_table_findings(999_999, key.gaming_day.isoformat(), key.shift, str(run.pk))
    table_shift_report(
        None, floor.table.pk, key.gaming_day.isoformat(), key.shift, False, True, str(run.pk)
    )
    run.refresh_from_db()
    assert run.status == JobRun.Status.FAILED
    assert run.detail["error"]["code"] == "table_audit_failed"
