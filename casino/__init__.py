"""Project wiring: settings, the Celery app, URLs and the WSGI/ASGI entry points."""

from casino.celery import app as celery_app

__all__ = ("celery_app",)
