"""The pit boss's floor, the cage and the audit desk in Chromium, beside the dealer's tablet.

Every page here is live: nothing is reloaded by hand. The pushes are recorded as they arrive,
to check that none carries a card.
"""

from __future__ import annotations

import json
import re
import subprocess
from typing import Any

import pytest

from tests.browser.conftest import PYTHON, ROOT, Floor, screenshot
from tests.browser.tablet_driver import TIMEOUT_MS, sign_in

FACE_DOWN = ("7O", "3E")


def script(floor: Floor, *args: Any) -> Any:
    command = [PYTHON, str(ROOT / "tests/browser/supervision_script.py"), *map(str, args)]
    done = subprocess.run(command, env=floor.env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def people(floor: Floor) -> dict[str, str]:
    return dict(script(floor, "people"))


class Pushes:
    """Every websocket frame a page receives."""

    def __init__(self, page: Any) -> None:
        self.frames: list[str] = []
        page.on("websocket", lambda socket: socket.on("framereceived", self.record))

    def record(self, frame: Any) -> None:
        self.frames.append(str(frame))

    def text(self) -> str:
        return "\n".join(str(frame) for frame in self.frames)


def open_screen(context: Any, floor: Floor, username: str, screen: str) -> tuple[Any, Pushes]:
    page = context.new_page()
    pushes = Pushes(page)
    page.goto(f"{floor.url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", f"{username}-pw")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(rf".*/{screen}/$"), timeout=TIMEOUT_MS)
    page.wait_for_selector('#live-status[data-state="online"]', timeout=TIMEOUT_MS)
    return page, pushes


def api_post(page: Any, path: str, body: dict[str, Any]) -> int:
    """What the tablet's own script does: a JSON POST with the page's CSRF token."""
    status: int = page.evaluate(
        """async ([path, body]) => {
            const token = JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
            const answer = await fetch(path, {method: "POST", body: JSON.stringify(body),
                headers: {"Content-Type": "application/json", "X-CSRFToken": token}});
            return answer.status;
        }""",
        [path, body],
    )
    return status


def assert_no_hidden_card(*texts: str) -> None:
    for text in texts:
        for card in FACE_DOWN:
            assert f'data-card="{card}"' not in text
            assert f'"{card}"' not in text
            assert f">{card}<" not in text


def test_a_correction_asked_at_the_tablet_is_approved_live_by_another_pit_boss(
    floor: Floor, browser: Any, people: dict[str, str]
) -> None:
    table = floor.table("siete_y_medio")
    script(floor, "round", table["table"])
    boss_b = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    boss_c = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    tablet = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    try:
        floor_b, pushes_b = open_screen(boss_b, floor, "boss-b", "floor")
        floor_c, pushes_c = open_screen(boss_c, floor, "boss-c", "floor")
        dealer = tablet.new_page()
        sign_in(dealer, floor.url, table["username"], table["password"])
        asked = api_post(
            dealer,
            f"/api/tables/{table['table']}/corrections",
            {
                "command": {"type": "void_round", "data": {"reason": "wrong deck"}},
                "reason": "The wrong deck was used.",
            },
        )
        assert asked == 201
        approval = '[data-approval^="correction-"]'
        floor_b.wait_for_selector(approval, timeout=TIMEOUT_MS)
        floor_c.wait_for_selector(f"{approval} [data-approve]", timeout=TIMEOUT_MS)
        screenshot(floor_c, "floor-1-correction-waiting")
        floor_c.locator(f"{approval} [data-approve]").click()
        floor_c.wait_for_selector(approval, state="detached", timeout=TIMEOUT_MS)
        floor_b.wait_for_selector(approval, state="detached", timeout=TIMEOUT_MS)
        dealer.wait_for_function(
            "() => document.querySelector('#table-state').innerText.includes('boss-c')",
            timeout=TIMEOUT_MS,
        )
        screenshot(dealer, "floor-2-tablet-sees-the-approval")
        floor_b.goto(f"{floor.url}/floor/tables/{table['table']}/")
        screenshot(floor_b, "floor-3-table-page")
        assert_no_hidden_card(pushes_b.text(), pushes_c.text())
    finally:
        for context in (boss_b, boss_c, tablet):
            context.close()


def test_the_pit_bosss_own_request_shows_no_approve_button_and_no_card(
    floor: Floor, context: Any, people: dict[str, str]
) -> None:
    table = floor.table("siete_y_medio")
    script(floor, "round", table["table"])
    page, pushes = open_screen(context, floor, "boss-b", "floor")
    tile = f"#tile-{table['table']}"
    page.wait_for_selector(f'{tile}[data-status="in_round"]', timeout=TIMEOUT_MS)
    assert_no_hidden_card(page.content())
    table_page = context.new_page()
    table_page.goto(f"{floor.url}/floor/tables/{table['table']}/")
    assert table_page.locator("[data-back]").count() >= 2  # box 1's card and the bank's
    assert_no_hidden_card(table_page.content())
    asked = api_post(
        page,
        f"/api/tables/{table['table']}/corrections",
        {"command": {"type": "void_round", "data": {"reason": "x"}}, "reason": "Own request."},
    )
    assert asked == 201
    mine = '[data-approval^="correction-"]:has-text("Own request.")'
    page.wait_for_selector(f"{mine} [data-own-request]", timeout=TIMEOUT_MS)
    assert page.locator(f"{mine} [data-approve]").count() == 0
    screenshot(page, "floor-4-own-request")
    assert_no_hidden_card(page.content(), pushes.text())


def test_a_fill_asked_on_the_floor_is_issued_at_the_cage_and_confirmed_at_the_tablet(
    floor: Floor, browser: Any, people: dict[str, str]
) -> None:
    table = floor.table("siete_y_medio")
    script(floor, "opener", table["table"])
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(3)]
    try:
        boss, _ = open_screen(contexts[0], floor, "boss-b", "floor")
        cage, _ = open_screen(contexts[1], floor, "cash-b", "cage")
        dealer = contexts[2].new_page()
        sign_in(dealer, floor.url, table["username"], table["password"])
        boss.goto(f"{floor.url}/floor/tables/{table['table']}/")
        boss.fill("#slip-chips-100", "5")
        boss.click("[data-request-fill]")
        number = script(floor, "slip", "fill", table["table"])["number"]
        waiting = f'[data-slip="fill-{number}"]'
        cage.wait_for_selector(waiting, timeout=TIMEOUT_MS)
        screenshot(cage, "cage-1-fill-waiting")
        cage.fill(f"#cage-{number}-100", "5")
        cage.click(f"{waiting} [data-sign]")
        cage.wait_for_selector(waiting, state="detached", timeout=TIMEOUT_MS)
        assert script(floor, "slip", "fill", table["table"])["stage"] == "issued"
        confirmed = api_post(dealer, f"/api/reports/slips/fill/{number}/confirm", {})
        assert confirmed in (200, 201)
        cage.wait_for_selector(
            f'[data-series="fill-{number}"][data-status="used"]', timeout=TIMEOUT_MS
        )
        screenshot(cage, "cage-2-series")
    finally:
        for context in contexts:
            context.close()


def test_the_auditor_downloads_a_pdf_that_opens(
    floor: Floor, context: Any, people: dict[str, str]
) -> None:
    from io import BytesIO

    from pypdf import PdfReader

    table = floor.table("siete_y_medio")
    script(floor, "opener", table["table"])
    stored = script(floor, "report", table["table"])
    page, _ = open_screen(context, floor, "audit-b", "audit")
    page.goto(f"{floor.url}/audit/?gaming_day={stored['gaming_day']}&shift={stored['shift']}")
    row = page.locator(f'tr[data-report="{stored["report"]}"]')
    with page.expect_download() as download_info:
        row.locator('[data-download="pdf"]').click()
    pdf = download_info.value.path().read_bytes()
    assert pdf.startswith(b"%PDF")
    assert len(PdfReader(BytesIO(pdf)).pages) >= 1
    import hashlib

    assert hashlib.sha256(pdf).hexdigest() in row.inner_text()
    page.click(f"#verify-{table['table']} button")
    page.wait_for_selector(f'#verify-{table["table"]} [data-verified="ok"]', timeout=TIMEOUT_MS)
    screenshot(page, "audit-1-reports-and-chains")


@pytest.mark.parametrize(
    ("username", "own", "others"),
    [
        ("dealer", "tablet", ("floor", "cage", "audit")),
        ("cash-b", "cage", ("floor", "audit")),
        ("audit-b", "audit", ("floor", "cage")),
    ],
)
def test_each_role_is_refused_the_screens_that_are_not_theirs(
    floor: Floor, context: Any, people: dict[str, str], username: str, own: str, others: Any
) -> None:
    if username == "dealer":
        table = floor.table("siete_y_medio")
        page = context.new_page()
        sign_in(page, floor.url, table["username"], table["password"])
    else:
        page, _ = open_screen(context, floor, username, own)
    for screen in others:
        answer = page.goto(f"{floor.url}/{screen}/")
        assert answer.status == 403, screen
        assert "Not your screen" in page.content()
    screenshot(page, f"refused-{username}")
