"""The pure rules core: no Django, DRF, Celery or serial imports (enforced by ruff TID251)."""
