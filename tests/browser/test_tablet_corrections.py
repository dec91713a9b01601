"""The dealer files a correction from the tablet by touch: the correction, the box, a reason."""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import Floor, screenshot
from tests.browser.tablet_driver import TIMEOUT_MS, sign_in, wager


def test_the_dealer_asks_for_a_boxs_void_and_sees_it_waiting(floor: Floor, context: Any) -> None:
    table = floor.table("siete_y_medio")
    page = context.new_page()
    sign_in(page, floor.url, table["username"], table["password"])
    wager(page, 1, 20)
    page.click("#ask-correction summary")
    form = page.locator('form[data-correction="void_box"]')
    form.locator("label.choice", has_text="1").first.click()
    form.get_by_label("Why").fill("late bet")
    screenshot(page, "tablet-correction-1-form")
    form.get_by_role("button", name="Ask: Void a box").click()
    page.wait_for_selector('#corrections li[data-status="pending"]', timeout=TIMEOUT_MS)
    listed = page.inner_text("#corrections")
    assert "Void a box" in listed
    assert "late bet" in listed
    screenshot(page, "tablet-correction-2-waiting")
