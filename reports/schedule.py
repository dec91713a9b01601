"""The beat schedule of the end-of-shift reports, built from the CASINO_SHIFTS setting.

Shift starts are local wall-clock times and the beat runs in UTC, so a fixed UTC crontab
would drift by an hour at every clock change. Each shift gets an hourly entry at its start
minute instead; the task asks the pure gaming-day rules whether that shift has just ended
and starts the report set once (a second firing finds it started). Imports no models: the
Celery app loads this before Django is set up.
"""

from __future__ import annotations

from typing import Any

from celery.schedules import crontab

TASK = "reports.tasks.shift_end_reports"


def shift_end_beat_schedule(shifts_setting: str) -> dict[str, dict[str, Any]]:
    """``"day=06:00,swing=14:00"`` → one beat entry per shift, named after it."""
    schedule = {}
    for item in shifts_setting.split(","):
        name, start = (part.strip() for part in item.split("=", 1))
        minute = int(start.split(":")[1])
        schedule[f"reports-after-{name}"] = {
            "task": TASK,
            "schedule": crontab(minute=str(minute)),
            "kwargs": {"ended_shift": name},
            "options": {"queue": "reports"},
        }
    return schedule
