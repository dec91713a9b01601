"""The pure rules core: no Django, DRF, Celery or serial imports (enforced by ruff TID251)."""

from tables.engine.poker.evaluator import best_hand as best_hand
