"""The Celery application, configured from Django settings (the CELERY_ names)."""

from __future__ import annotations

import os

from celery import Celery
from kombu import Queue

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

app = Celery("casino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.task_queues = (Queue("default"), Queue("reports"))
# Declared in code so that every deployment runs the same schedule; the reports issue fills it.
app.conf.beat_schedule = {}
app.autodiscover_tasks()
