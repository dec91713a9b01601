"""Refusals are translated at the edge from the engine's code and params."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from tables.engine.errors import RuleError
from tables.models import Table
from tables.refusals import refusal_sentence, sentence_for
from tests.api.game_clients import SIETE_SETTINGS, open_table


def test_a_known_code_reads_in_spanish() -> None:
    with translation.override("es"):
        sentence = refusal_sentence("deal_not_complete", "The initial deal is not complete yet.")
    assert sentence == "El reparto inicial aún no ha terminado."


def test_the_params_fill_the_sentence_when_the_refusal_carries_them() -> None:
    error = RuleError("The minimum stake at this table is 10.", code="stake_below_minimum")
    error.params = {"minimum": 10}
    with translation.override("pt-br"):
        assert sentence_for(error) == "A aposta mínima nesta mesa é 10."


def test_without_the_params_a_plainer_sentence_is_used() -> None:
    error = RuleError("The minimum stake at this table is 10.", code="stake_below_minimum")
    with translation.override("es"):
        assert sentence_for(error) == "La apuesta es inferior al mínimo de esta mesa."


def test_an_unknown_code_falls_back_to_the_engines_message() -> None:
    with translation.override("es"):
        assert refusal_sentence("brand_new_code", "Something new.") == "Something new."


def test_in_english_the_engines_own_message_is_kept() -> None:
    with translation.override("en"):
        assert (
            refusal_sentence("deal_not_complete", "The deal is not done.")
            == "The deal is not done."
        )


@pytest.mark.django_db
def test_the_api_answers_a_refusal_in_the_callers_language(
    client_for: Any, dealer_dora: User, pit_boss_paula: User
) -> None:
    table: Table = open_table("SyM-R", "siete_y_medio", SIETE_SETTINGS, dealer_dora, pit_boss_paula)
    client = client_for(dealer_dora)
    client.post(
        f"/api/tables/{table.pk}/siete/place-wager", {"box": 1, "amount": 20}, format="json"
    )
    response = client.post(
        f"/api/tables/{table.pk}/siete/stand", {"box": 1}, format="json", HTTP_ACCEPT_LANGUAGE="es"
    )
    assert response.status_code == 409
    assert response.json()["code"] == "deal_not_complete"
    assert response.json()["detail"] == "El reparto inicial aún no ha terminado."
