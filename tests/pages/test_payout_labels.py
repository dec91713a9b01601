"""A settled box's button says what the dealer does with its chips, in the dealer's language,
and the box says its outcome once."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from tables.models import Table
from tables.pages.labels import command_label
from tests.api.game_clients import SIETE_SETTINGS, Tablet, open_table

# Box 1 loses 20 to the bank's 5, box 2 ties it (a push), box 3 wins 30 at even money.
STAKES = {1: 20, 2: 10, 3: 30}
FACE_DOWN = {1: "3O", 2: "5C", 3: "6B"}
BANK = "5E"
BUTTONS = {
    "en": {1: "Collect 20 · box 1", 2: "Push: the stake stays · box 2", 3: "Pay 30 · box 3"},
    "es": {
        1: "Cobrar 20 · casilla 1",
        2: "Empate: la apuesta se queda · casilla 2",
        3: "Pagar 30 · casilla 3",
    },
    "pt-br": {1: "Recolher 20 · box 1", 2: "Empate: a aposta fica · box 2", 3: "Pagar 30 · box 3"},
}
OUTCOMES = {1: "LOSE", 2: "PUSH", 3: "WIN"}


@pytest.mark.parametrize("language", sorted(BUTTONS))
@pytest.mark.parametrize("box", sorted(STAKES))
def test_a_settled_boxs_button_names_what_the_dealer_does(language: str, box: int) -> None:
    net = {1: -20, 2: 0, 3: 30}[box]
    with translation.override(language):
        assert command_label("record_payout", {"box": box, "amount": net}) == BUTTONS[language][box]


def test_a_payout_not_worked_out_yet_is_a_plain_pay() -> None:
    with translation.override("en"):
        assert command_label("record_payout", {"box": 4}) == "Pay · box 4"


@pytest.fixture
def settled(client_for: Any, dealer_dora: User, pit_boss_paula: User) -> Table:
    table = open_table("SyM-P", "siete_y_medio", SIETE_SETTINGS, dealer_dora, pit_boss_paula)
    tablet = Tablet(client_for(dealer_dora), table, "siete")
    for box, stake in STAKES.items():
        tablet.send("place_wager", box=box, amount=stake)
    for card in [*FACE_DOWN.values(), BANK]:
        tablet.send("record_card", card=card, face_up=False)
    for box in STAKES:
        tablet.send("reveal", box=box)
        tablet.send("stand", box=box)
    tablet.send("reveal_bank")  # the bank stands at 5
    assert tablet.state()["phase"] == "settled"
    return table


def boxes_on_screen(dealer: User, table: Table, language: str) -> dict[int, str]:
    """Each box's article in the dealer's tablet fragment, by its number."""
    tablet = Client()
    tablet.force_login(dealer)
    fragment = tablet.get(f"/tablet/tables/{table.pk}/state", HTTP_ACCEPT_LANGUAGE=language)
    found = re.finditer(
        r'<article class="box[^"]*" data-box="(\d+)".*?</article>', fragment.content.decode(), re.S
    )
    return {int(article.group(1)): article.group(0) for article in found}


def payout_buttons(article: str) -> list[str]:
    return re.findall(r'<button [^>]*data-command="record_payout"[^>]*>([^<]*)</button>', article)


@pytest.mark.django_db
@pytest.mark.parametrize("language", sorted(BUTTONS))
def test_the_settled_tablet_shows_one_payout_button_per_box_in_its_words(
    dealer_dora: User, settled: Table, language: str
) -> None:
    boxes = boxes_on_screen(dealer_dora, settled, language)
    assert {box: payout_buttons(boxes[box]) for box in STAKES} == {
        box: [label] for box, label in BUTTONS[language].items()
    }


@pytest.mark.django_db
def test_a_settled_box_says_its_outcome_once(dealer_dora: User, settled: Table) -> None:
    boxes = boxes_on_screen(dealer_dora, settled, "en")
    for box, outcome in OUTCOMES.items():
        text = re.sub(r"<[^>]+>", " ", boxes[box])
        assert re.findall(rf"\b{outcome}\b", text) == [outcome], (box, text)
