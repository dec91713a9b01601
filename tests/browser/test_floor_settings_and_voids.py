"""The two requests a second pit boss decides, in Chromium: a slip's void asked on a table's
page, and a paytable change; and a limits change, played at once and seen on the floor's tile.

Each test plays at a table of its own, with two pit bosses in their own browsers; the floor
pages are never reloaded by hand.
"""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import Floor, screenshot
from tests.browser.tablet_driver import TIMEOUT_MS
from tests.browser.test_floor_supervision import open_screen, script


def two_pit_bosses(browser: Any, floor: Floor) -> tuple[list[Any], Any, Any]:
    """boss-b's and boss-c's floors, each in a browser of its own."""
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    boss_b, _ = open_screen(contexts[0], floor, "boss-b", "floor")
    boss_c, _ = open_screen(contexts[1], floor, "boss-c", "floor")
    return contexts, boss_b, boss_c


def test_a_slip_void_asked_by_one_pit_boss_is_approved_by_another_in_the_queue(
    floor: Floor, browser: Any
) -> None:
    table = floor.table("siete_y_medio")
    script(floor, "people")
    contexts, boss_b, boss_c = two_pit_bosses(browser, floor)
    try:
        table_page = contexts[0].new_page()
        table_page.goto(f"{floor.url}/floor/tables/{table['table']}/")
        table_page.fill("#slip-chips-100", "3")
        table_page.click("[data-request-fill]")
        number = script(floor, "slip", "fill", table["table"])["number"]
        row = f'[data-slip="fill-{number}"]'
        table_page.wait_for_selector(f"{row} [data-ask-void]", timeout=TIMEOUT_MS)
        table_page.fill(f"#void-reason-fill-{number}", "Asked for the wrong table.")
        table_page.click(f"{row} [data-ask-void]")
        table_page.wait_for_selector(f"{row}:has-text('another pit boss')", timeout=TIMEOUT_MS)

        waiting = '[data-approval^="slip_void-"]'
        boss_c.wait_for_selector(f"{waiting} [data-approve]", timeout=TIMEOUT_MS)
        assert f"Fill slip {number} (300" in boss_c.locator(waiting).inner_text()
        assert "Asked for the wrong table." in boss_c.locator(waiting).inner_text()
        boss_b.wait_for_selector(f"{waiting} [data-own-request]", timeout=TIMEOUT_MS)
        assert boss_b.locator(f"{waiting} [data-approve]").count() == 0
        screenshot(boss_c, "floor-void-1-waiting-for-another-pit-boss")
        screenshot(boss_b, "floor-void-2-own-request")

        boss_c.fill(f"{waiting} input[name=note]", "Seen at the table.")
        boss_c.click(f"{waiting} [data-approve]")
        boss_c.wait_for_selector(waiting, state="detached", timeout=TIMEOUT_MS)
        boss_b.wait_for_selector(waiting, state="detached", timeout=TIMEOUT_MS)
        assert script(floor, "slip", "fill", table["table"])["voided"] is True
        table_page.reload()
        assert table_page.locator(f"{row} [data-ask-void]").count() == 0
        screenshot(table_page, "floor-void-3-slip-void")
    finally:
        for context in contexts:
            context.close()


def test_a_limits_change_on_the_table_page_shows_on_the_floors_tile(
    floor: Floor, browser: Any
) -> None:
    table = floor.table("siete_y_medio")
    script(floor, "people")
    contexts, _boss_b, boss_c = two_pit_bosses(browser, floor)
    try:
        tile = f"#tile-{table['table']}"
        boss_c.wait_for_selector(tile, timeout=TIMEOUT_MS)
        assert "10 / 500" in boss_c.locator(tile).inner_text()
        table_page = contexts[0].new_page()
        table_page.goto(f"{floor.url}/floor/tables/{table['table']}/")
        table_page.fill("#setting-max_stake", "1000")
        table_page.click("[data-change-settings]")
        table_page.wait_for_selector("#settings-log :text('500 → 1000')", timeout=TIMEOUT_MS)
        boss_c.wait_for_function(
            f"() => document.querySelector('{tile}').innerText.includes('10 / 1000')",
            timeout=TIMEOUT_MS,
        )
        assert script(floor, "settings", table["table"])["max_stake"] == 1000
        screenshot(table_page, "floor-limits-1-change-log")
        screenshot(boss_c, "floor-limits-2-tile")
    finally:
        for context in contexts:
            context.close()


def test_a_paytable_change_waits_for_a_second_pit_boss(floor: Floor, browser: Any) -> None:
    table = floor.table("siete_y_medio")
    script(floor, "people")
    contexts, boss_b, boss_c = two_pit_bosses(browser, floor)
    try:
        table_page = contexts[0].new_page()
        table_page.goto(f"{floor.url}/floor/tables/{table['table']}/")
        table_page.fill("#setting-paytablereal", "3:1")
        table_page.fill("#settings-reason", "Promotion night.")
        table_page.click("[data-change-settings]")
        table_page.wait_for_selector("#table-approvals-heading", timeout=TIMEOUT_MS)
        assert script(floor, "settings", table["table"])["paytable"]["real"] == "2:1"

        waiting = '[data-approval^="settings-"]'
        boss_c.wait_for_selector(f"{waiting} [data-approve]", timeout=TIMEOUT_MS)
        assert "2:1 → 3:1" in boss_c.locator(waiting).inner_text()
        boss_b.wait_for_selector(f"{waiting} [data-own-request]", timeout=TIMEOUT_MS)
        assert boss_b.locator(f"{waiting} [data-approve]").count() == 0
        screenshot(boss_c, "floor-paytable-1-waiting")

        boss_c.click(f"{waiting} [data-approve]")
        boss_c.wait_for_selector(waiting, state="detached", timeout=TIMEOUT_MS)
        boss_b.wait_for_selector(waiting, state="detached", timeout=TIMEOUT_MS)
        assert script(floor, "settings", table["table"])["paytable"]["real"] == "3:1"
        table_page.reload()
        log = table_page.locator("#settings-log").inner_text()
        assert "2:1 → 3:1" in log
        assert "asked by boss-b" in log
        screenshot(table_page, "floor-paytable-2-change-log")
    finally:
        for context in contexts:
            context.close()
