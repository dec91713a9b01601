"""The Celery application, configured from Django settings (the CELERY_ names)."""

from __future__ import annotations

import os

from celery import Celery
from django.conf import settings
from kombu import Queue

from reports.schedule import shift_end_beat_schedule

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

app = Celery("casino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.task_queues = (Queue("default"), Queue("reports"))
# Declared in code so that every deployment runs the same schedule (reports/schedule.py).
app.conf.beat_schedule = shift_end_beat_schedule(settings.CASINO_SHIFTS)
app.autodiscover_tasks()
