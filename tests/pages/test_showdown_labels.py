"""The showdown names each hand's category in the dealer's language, never as the engine's code."""

from __future__ import annotations

import pytest
from django.utils import translation

from tables.engine.poker.ranking import CATEGORIES
from tables.pages.labels import HAND_CATEGORIES
from tables.pages.screen import _showdown_hands


def test_every_category_the_engine_ranks_has_a_name() -> None:
    assert set(HAND_CATEGORIES) == set(CATEGORIES)


@pytest.mark.parametrize(
    ("language", "expected"), [("en", "two pair"), ("es", "doble pareja"), ("pt-br", "dois pares")]
)
def test_the_showdown_reads_in_the_dealers_language(language: str, expected: str) -> None:
    view = {"result": {"hands": [{"seat": 2, "category": "two_pair"}]}}
    with translation.override(language):
        (hand,) = _showdown_hands(view)
    assert hand["label"] == expected
    assert hand["seat"] == 2


def test_every_name_is_translated_into_spanish() -> None:
    with translation.override("es"):
        spanish = {key: str(label) for key, label in HAND_CATEGORIES.items()}
    english = {key: str(label) for key, label in HAND_CATEGORIES.items()}
    assert all(spanish[key] != english[key] for key in english)


def test_no_result_no_hands() -> None:
    assert _showdown_hands({}) == []
    assert _showdown_hands({"result": None}) == []
