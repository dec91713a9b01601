"""A Seven-Card Stud hand with four players, dealt and bet by taps to the showdown."""

from __future__ import annotations

import random
from typing import Any

from tests.browser.conftest import Floor, screenshot
from tests.browser.tablet_driver import present, sign_in, tap, tap_first

DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
STARTING_CHIPS = 500 + 400 + 300 + 600
PASSIVE = ("check", "call", "bring_in")


def play_to_showdown(page: Any, deck: list[str]) -> list[str]:
    """Deal what is due; every player takes the passive option; show in order; award."""
    hole_cards: list[str] = []
    for _ in range(200):
        if present(page, "#stud-result"):
            return hole_cards
        due = page.locator("#card-due")
        if present(page, '[data-command="record_card"]'):
            card = deck.pop()
            if due.count() and "face down" in due.inner_text():
                hole_cards.append(card)
            tap_first(page, '[data-command="record_card"]', card=card)
            continue
        passive = [k for k in PASSIVE if present(page, f'[data-command="{k}"]')]
        if passive:
            tap_first(page, f'[data-command="{passive[0]}"]')
        elif present(page, '[data-command="show"]'):
            tap_first(page, '[data-command="show"]')
        elif present(page, '[data-command="award_pots"]'):
            tap_first(page, '[data-command="award_pots"]')
        else:
            raise AssertionError("nothing to tap and no result: " + page.inner_text("#table-state"))
    raise AssertionError("the hand did not finish")


def test_a_four_player_stud_hand_by_taps_reaches_the_showdown(floor: Floor, context: Any) -> None:
    table = floor.table("seven_card_stud")
    page = context.new_page()
    sign_in(page, floor.url, table["username"], table["password"])
    screenshot(page, "tablet-stud-1-seated")
    tap(page, "Start hand")
    deck = DECK.copy()
    random.Random(11).shuffle(deck)
    third_street_holes = deck[-8:]
    # Seats 1-4, two hole cards and one up card each on third street.
    hole_cards = []
    for _ in range(12):
        card = deck.pop()
        if "face down" in page.inner_text("#card-due"):
            hole_cards.append(card)
        tap_first(page, '[data-command="record_card"]', card=card)
    html = page.content()
    for card in hole_cards:
        assert f'data-card="{card}"' not in html, f"the hole card {card} is on the page"
    assert set(hole_cards) == set(third_street_holes)
    screenshot(page, "tablet-stud-2-third-street")
    assert present(page, '[data-command="bring_in"]')  # the bring-in acts first
    hole_cards += play_to_showdown(page, deck)
    screenshot(page, "tablet-stud-3-showdown")
    result = page.inner_text("#stud-result")
    assert "Rake taken" in result
    rake = int(page.inner_text("#rake-total"))
    stacks = [int(s) for s in page.locator("[data-stack]").all_inner_texts()]
    assert sum(stacks) + rake == STARTING_CHIPS
    assert present(page, "[data-winner]")
