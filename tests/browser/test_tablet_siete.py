"""A whole six-box Siete y Medio round played by taps on the tablet, in Chromium."""

from __future__ import annotations

from typing import Any

from tables.engine import siete
from tests.browser.conftest import Floor, screenshot
from tests.browser.tablet_driver import (
    TABLE_SETTINGS,
    box_text,
    has_button,
    record_payouts,
    sign_in,
    tap,
    wager,
)

STAKES = {1: 20, 2: 20, 3: 10, 4: 10, 5: 15, 6: 25}
FACE_DOWN = {1: "7O", 2: "7C", 3: "6B", 4: "2O", 5: "7E", 6: "4C"}
BANK_DOWN = "3E"
DRAWS = {1: "12O", 2: "10E", 5: "11B", 6: "7B"}  # face up; boxes 3 and 4 stand
BANK_DRAW = "2C"
LABELS = {
    "win": "WIN",
    "bank_bust_win": "WIN",
    "loss": "LOSE",
    "push": "PUSH",
    "player_bust": "BUST",
}


def _apply(state: Any, command: Any) -> Any:
    for event in siete.SIETE.decide(state, command):
        state = siete.SIETE.evolve(state, event)
    return state


def engine_results() -> dict[int, dict[str, Any]]:
    """The same round straight through the pure engine: what the rules pay."""
    commands: list[Any] = [siete.StartRound()]
    commands += [siete.PlaceWager(box=b, amount=a) for b, a in STAKES.items()]
    commands += [siete.RecordCard(FACE_DOWN[b]) for b in STAKES]
    commands.append(siete.RecordCard(BANK_DOWN))
    for box in STAKES:
        if box in DRAWS:
            commands += [siete.RequestDraw(box=box), siete.RecordCard(DRAWS[box])]
    settings = siete.SieteSettings.from_mapping(TABLE_SETTINGS["siete_y_medio"]).to_mapping()
    state = siete.SIETE.new_state(settings)
    for command in commands:
        state = _apply(state, command)
        turn = siete.live_view(state)["turn"] or {}
        # Whoever has drawn all they will stands (box 6 declares its bust), as on the tablet.
        while turn.get("hand") == "box" and _done(turn["box"], state):
            box = turn["box"]
            state = _apply(state, siete.DeclareBust(box=box) if box == 6 else siete.Stand(box=box))
            turn = siete.live_view(state)["turn"] or {}
    for command in (siete.RevealBank(), siete.RecordCard(BANK_DRAW)):
        state = _apply(state, command)
    return {r["box"]: r for r in siete.live_view(state)["results"]}


def _done(box: int, state: Any) -> bool:
    view = siete.live_view(state)
    mine = next(b for b in view["boxes"] if b["box"] == box)
    return box not in DRAWS or len(mine["cards"]) >= 2


def play_box(page: Any, box: int) -> None:
    if box in DRAWS:
        tap(page, f"Draw face up · box {box}")
        tap(page, f"Deal a card · box {box}", card=DRAWS[box])
    if box == 6 and has_button(page, "Declare bust · box 6"):
        tap(page, "Declare bust · box 6", known=True)
    elif has_button(page, f"Stand · box {box}"):
        tap(page, f"Stand · box {box}")


def test_a_six_box_round_by_taps_pays_what_the_rules_pay(floor: Floor, context: Any) -> None:
    table = floor.table("siete_y_medio")
    page = context.new_page()
    sign_in(page, floor.url, table["username"], table["password"])
    screenshot(page, "tablet-siete-1-no-round")
    tap(page, "Start round")
    for box, amount in STAKES.items():
        wager(page, box, amount)
    screenshot(page, "tablet-siete-2-wagers")
    for box in STAKES:
        tap(page, "Deal a card", card=FACE_DOWN[box])
    tap(page, "Deal a card", card=BANK_DOWN)
    html = page.content()
    for code in [*FACE_DOWN.values(), BANK_DOWN]:
        assert f'data-card="{code}"' not in html, f"the face-down {code} is on the page"
    screenshot(page, "tablet-siete-3-players")
    for box in STAKES:
        play_box(page, box)
    tap(page, "Reveal bank card", known=True)
    tap(page, "Deal a card", card=BANK_DRAW)
    screenshot(page, "tablet-siete-4-settled")
    expected = engine_results()
    assert expected[1]["net"] == 40  # Siete y Medio Real pays 2:1
    assert expected[2]["net"] == 30  # Siete y Medio pays 3:2
    assert expected[6]["outcome"] == "player_bust"
    for box, result in expected.items():
        shown = page.locator(f'tr[data-payout-box="{box}"] td[data-net]').get_attribute("data-net")
        assert int(shown) == result["net"], (box, result)
        assert box_text(page, box).count(LABELS[result["outcome"]]) == 1, box  # said once
    assert any(r["net"] < 0 for r in expected.values())  # a box to collect from, at least
    record_payouts(page, {box: result["net"] for box, result in expected.items()})
    screenshot(page, "tablet-siete-5-paid")
    paid = [e for e in floor.events(table["table"]) if e["type"] == "payout.recorded"]
    assert sorted((e["payload"]["box"], e["payload"]["amount"]) for e in paid) == sorted(
        (box, result["net"]) for box, result in expected.items()
    )
