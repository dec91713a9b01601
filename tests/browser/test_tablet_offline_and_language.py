"""Through a Wi-Fi drop the taps wait on the tablet and go once; refusals read in Spanish."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from tests.browser.conftest import Floor, screenshot
from tests.browser.tablet_driver import TIMEOUT_MS, button, seq, sign_in, tap

QUEUE_KEY = "casino.tablet.queue.{table}"
EMPTY_QUEUE = "key => (JSON.parse(localStorage.getItem(key) || '[]')).length === 0"


def queued(page: Any, table_id: int) -> list[dict[str, Any]]:
    raw = page.evaluate(f"() => localStorage.getItem('{QUEUE_KEY.format(table=table_id)}')")
    return list(json.loads(raw or "[]"))


def test_taps_during_a_drop_are_queued_and_each_applied_once(floor: Floor, context: Any) -> None:
    table = floor.table("siete_y_medio")
    page = context.new_page()
    sign_in(page, floor.url, table["username"], table["password"])
    tap(page, "Start round")
    context.set_offline(True)
    page.wait_for_selector('#live-status[data-state="offline"]', timeout=TIMEOUT_MS)
    before = seq(page)
    for box, amount in ((1, 20), (2, 30), (3, 40)):
        page.fill(f"#amount-{box}", str(amount))
        button(page, f"Wager · box {box}").click()
    page.wait_for_function("() => document.querySelectorAll('#queue-items li').length === 3")
    items = queued(page, table["table"])
    assert [item["body"]["data"] for item in items] == [
        {"box": 1, "amount": 20}, {"box": 2, "amount": 30}, {"box": 3, "amount": 40}
    ]  # fmt: skip
    assert seq(page) == before  # nothing reached the server
    screenshot(page, "tablet-offline-queue")
    page.wait_for_timeout(1500)  # the drop lasts: the tablet's times are older than the server's
    context.set_offline(False)
    queue_key = QUEUE_KEY.format(table=table["table"])
    page.wait_for_function(EMPTY_QUEUE, arg=queue_key, timeout=TIMEOUT_MS)
    page.wait_for_function(
        f"() => Number(document.querySelector('#table-state').dataset.seq) > {before}"
    )
    assert page.locator("#answer div").count() >= 3
    # The first tap is sent again with its key, as after a lost answer: the server replays it.
    page.evaluate(
        "([key, item]) => localStorage.setItem(key, JSON.stringify([item]))",
        [queue_key, items[0]],
    )
    page.reload()
    page.wait_for_function(EMPTY_QUEUE, arg=queue_key, timeout=TIMEOUT_MS)
    wagers = [e for e in floor.events(table["table"]) if e["type"] == "wager.placed"]
    assert [(e["payload"]["box"], e["payload"]["amount"]) for e in wagers] == [
        (1, 20), (2, 30), (3, 40)
    ]  # fmt: skip
    assert len({e["key"] for e in wagers}) == 3
    assert [e["key"] for e in wagers] == [item["key"] for item in items]
    for event, item in zip(wagers, items, strict=True):
        tapped_at = datetime.fromisoformat(item["tablet_time"].replace("Z", "+00:00"))
        assert datetime.fromisoformat(event["occurred_at"]) == tapped_at
        assert datetime.fromisoformat(event["recorded_at"]) > tapped_at


def test_a_refusal_is_shown_in_spanish_and_the_screen_is_unchanged(
    floor: Floor, browser: Any
) -> None:
    table = floor.table("siete_y_medio")
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="es-ES")
    try:
        page = context.new_page()
        sign_in(page, floor.url, table["username"], table["password"])
        assert page.get_attribute("html", "lang") == "es"
        tap(page, "Empezar ronda")
        before_html = page.inner_html("#table-state")
        before = seq(page)
        page.fill("#amount-1", "5")
        button(page, "Apostar · casilla 1").click()
        refusal = page.locator("#refusal")
        refusal.wait_for(state="visible", timeout=TIMEOUT_MS)
        assert "apuesta" in refusal.inner_text().lower()
        assert "mínimo" in refusal.inner_text().lower()
        assert seq(page) == before
        assert page.inner_html("#table-state") == before_html
        screenshot(page, "tablet-refusal-es")
        # The dealer switches the language at the top of the screen.
        page.select_option("#language-select", "pt-br")
        page.wait_for_function("() => document.documentElement.lang === 'pt-br'")
        assert button(page, "Apostar · box 1").count() == 1
        screenshot(page, "tablet-pt-br")
    finally:
        context.close()
    assert not [e for e in floor.events(table["table"]) if e["type"] == "wager.placed"]
