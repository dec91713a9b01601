"""Cards from the simulated shoe appear on the tablet without a reload; no hidden card leaks."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Floor, screenshot
from tests.browser.shoe_line import shoe_at_table
from tests.browser.tablet_driver import TIMEOUT_MS, seq, sign_in, tap, wager, wait_past

pytestmark = pytest.mark.skipif(
    not os.environ.get("REDIS_URL"),
    reason="the shoe's reader is another process: its pushes cross on channels-redis (REDIS_URL)",
)


def wait_until_the_shoe_feeds(page: Any) -> None:
    for _ in range(40):
        page.reload()
        if page.locator("#shoe-feeds").count():
            return
        page.wait_for_timeout(250)
    raise AssertionError("the shoe did not come online")


def test_shoe_cards_appear_live_and_face_down_ones_never_leave_the_server(
    floor: Floor, context: Any, tmp_path: Path
) -> None:
    table = floor.table("siete_y_medio")
    serial = f"SIM-B{table['table']}"
    floor.script("shoe", table["table"], serial)
    page = context.new_page()
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(str(data))))
    sign_in(page, floor.url, table["username"], table["password"])
    with shoe_at_table(floor.env, serial, tmp_path) as shoe:
        wait_until_the_shoe_feeds(page)
        assert page.locator("#card-picker").count() == 0  # nothing to enter
        tap(page, "Start round")
        wager(page, 1, 20)
        hidden = []
        for place in ('article[data-box="1"]', '[data-place="bank"]'):
            before = seq(page)
            hidden.append(shoe.draw())
            wait_past(page, before)  # pushed: no reload
            page.locator(f"{place} .card.back").first.wait_for(timeout=TIMEOUT_MS)
        screenshot(page, "tablet-shoe-face-down")
        html = page.content()
        for card in hidden:
            assert f'data-card="{card}"' not in html
            assert card not in "".join(frames)
        tap(page, "Draw face up · box 1")
        before = seq(page)
        shown = shoe.draw()
        wait_past(page, before)
        page.locator(f'article[data-box="1"] [data-card="{shown}"]').wait_for(timeout=TIMEOUT_MS)
        screenshot(page, "tablet-shoe-face-up")
    notices = [json.loads(frame) for frame in frames]
    assert notices, "no notice was pushed"
    assert all(set(notice) == {"type", "table", "seq"} for notice in notices)
    for card in hidden:
        assert f'data-card="{card}"' not in page.content()
