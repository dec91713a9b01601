"""The demo floor as a newcomer finds it: `make run` on a fresh var dir, then every demo role
signs in with the login seed_demo printed and works his own screen in Chromium.

The service is started by `make run` itself (migrate, seed_demo, serve_demo with SyM-1's demo
shoe dealing), only on ports of the browser tier's own and without its install step, so what
this module passes is what the README's two lines promise. Screenshots: var/screenshots/demo-*.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import signal
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from reports.shifts import floor_clock
from tables.demo.floor import DEMO_PLAYERS, PLAYER_BUY_IN, SIETE_SETTINGS
from tables.engine.siete.settings import SieteSettings
from tables.engine.siete.settlement import settle_box
from tests.browser.conftest import CHROMIUM, PORT, PYTHON, ROOT, _wait_for, screenshot, server_env
from tests.browser.tablet_driver import (
    TIMEOUT_MS,
    button,
    has_button,
    record_payouts,
    tap,
    wager,
    wait_live,
)
from tests.browser.test_tablet_stud import DECK, play_to_showdown

# Two ports beside the tier's own server (which may be up in the same session): the page
# server and the demo shoe's line, which `make run` would otherwise put on 7701.
DEMO_PORT = int(os.environ.get("DEMO_TIER_PORT", str(PORT + 1)))
SHOE_PORT = DEMO_PORT + 1
# The demo shoe waits a few seconds of quiet before each card (devices/demo_serving.py).
SHOE_MS = 60_000
STAKES = {1: 20, 2: 35, 3: 50}  # 35: a Siete y Medio on it (3:2) breaks a chip of 5


@dataclass
class DemoFloor:
    """The running `make run` and what seed_demo printed for the newcomer."""

    url: str
    env: dict[str, str]
    output: str
    passwords: dict[str, str] = field(default_factory=dict)
    dealer_of: dict[str, str] = field(default_factory=dict)  # table name -> dealer

    def __post_init__(self) -> None:
        for username, password in re.findall(r"^\s+(\w+)\s+(\S+-demo)\s+\w+$", self.output, re.M):
            self.passwords[username] = password
        dealers = re.search(r"^Dealers: (.+)$", self.output, re.M)
        assert dealers, self.output
        for dealer, table in re.findall(r"(\w+) at ([\w-]+)", dealers.group(1)):
            self.dealer_of[table] = dealer

    def ended_shift(self) -> tuple[str, str]:
        found = re.search(r"^Demo shift (\S+) (\w+) \(ended", self.output, re.M)
        assert found, self.output
        return found.group(1), found.group(2)

    def events(self, table_id: int) -> list[dict[str, Any]]:
        command = [PYTHON, str(ROOT / "tests/browser/floor_script.py"), "events", str(table_id)]
        done = subprocess.run(command, env=self.env, capture_output=True, text=True, check=True)
        return list(json.loads(done.stdout.strip().splitlines()[-1]))


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoFloor]:
    if not CHROMIUM.exists():
        pytest.skip("the browser tier needs Debian's chromium at /usr/bin/chromium")
    var_dir = tmp_path_factory.mktemp("demo-floor")
    env = server_env(var_dir)
    log_path = var_dir / "make-run.log"
    command = [
        *("make", "--no-print-directory", "-o", ".venv/.runtime", "run"),
        f"BIN={Path(PYTHON).parent}",
        f"PORT={DEMO_PORT}",
        f"SERVE_DEMO_ARGS=--shoe-port {SHOE_PORT}",
    ]
    with log_path.open("wb") as log:
        # A session of its own: SIGTERM reaches make and serve_demo, which stops its shoe.
        run = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            _wait_for(f"http://127.0.0.1:{DEMO_PORT}/login/", run, timeout_s=180)
            yield DemoFloor(f"http://127.0.0.1:{DEMO_PORT}", env, log_path.read_text())
        finally:
            os.killpg(run.pid, signal.SIGTERM)
            try:
                run.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(run.pid, signal.SIGKILL)
                run.wait()


class Watched:
    """A page whose console errors and failed answers are kept: a newcomer must see none."""

    def __init__(self, context: Any) -> None:
        self.page = context.new_page()
        self.problems: list[str] = []
        self.page.on("console", self._console)
        self.page.on("response", self._response)

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.problems.append(f"console: {message.text} ({message.location.get('url')})")

    def _response(self, answer: Any) -> None:
        if answer.status >= 400:
            self.problems.append(f"{answer.status} {answer.url}")

    def sign_in(self, demo: DemoFloor, username: str, landing: str) -> Any:
        page = self.page
        page.goto(f"{demo.url}/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", demo.passwords[username])
        page.click("button[type=submit]")
        page.wait_for_url(re.compile(rf".*{landing}$"), timeout=TIMEOUT_MS)
        wait_live(page)
        return page

    def dealer_at(self, demo: DemoFloor, table: str) -> Any:
        """The tablet of `table`'s demo dealer, signed in with the login seed_demo printed."""
        page = self.sign_in(demo, demo.dealer_of[table], r"/tablet/tables/\d+/")
        assert table in page.inner_text("body")
        return page

    def assert_clean(self) -> None:
        assert self.problems == []


def _table_id(page: Any) -> int:
    found = re.search(r"/tablet/tables/(\d+)/$", page.url)
    assert found, page.url
    return int(found.group(1))


def _cards(place: Any) -> list[str]:
    codes = place.locator("[data-card]").evaluate_all("all => all.map(e => e.dataset.card)")
    return [str(code) for code in codes]


def _wait_for_the_shoe(page: Any) -> None:
    """SyM-1's demo shoe, started by make run, is online once its reader has connected (a
    moment after the server answers); the dealer reloads until the tablet says so."""
    for _ in range(SHOE_MS // 5_000):
        if "✔" in page.inner_text("#shoe-state"):
            return
        page.wait_for_timeout(5_000)
        page.reload()
        wait_live(page)
    raise AssertionError("the demo shoe is not online: " + page.inner_text("#shoe-state"))


def test_the_demo_dealer_plays_a_siete_round_the_demo_shoe_deals(
    demo: DemoFloor, context: Any
) -> None:
    watched = Watched(context)
    page = watched.dealer_at(demo, "SyM-1")
    _wait_for_the_shoe(page)
    screenshot(page, "demo-01-dealer1-siete-signed-in")
    tap(page, "Start round")
    for box, stake in STAKES.items():
        wager(page, box, stake)
    # No card to enter: the shoe deals each box its face-down card and the bank its own.
    button(page, "Stand · box 1").wait_for(timeout=SHOE_MS)
    assert page.locator("article[data-box] [data-card], [data-place=bank] [data-card]").count() == 0
    screenshot(page, "demo-02-dealer1-siete-dealt")
    tap(page, "Draw face up · box 1")
    page.wait_for_function(
        "() => document.querySelectorAll('article[data-box=\"1\"] .card').length >= 2",
        timeout=SHOE_MS,
    )
    if has_button(page, "Stand · box 1"):  # not settled at once by a visible bust
        tap(page, "Stand · box 1")
    for box in (2, 3):
        button(page, f"Stand · box {box}").wait_for(timeout=SHOE_MS)
        tap(page, f"Stand · box {box}")
    tap(page, "Reveal bank card", known=True)  # the shoe read it: the tablet only turns it
    page.wait_for_function(
        f"() => document.querySelectorAll('tr[data-payout-box]').length === {len(STAKES)}",
        timeout=SHOE_MS,
    )
    screenshot(page, "demo-03-dealer1-siete-settled")
    settings = SieteSettings.from_mapping(SIETE_SETTINGS)
    bank = _cards(page.locator("[data-place=bank]"))
    nets = {}
    for box, stake in STAKES.items():
        article = page.locator(f'article[data-box="{box}"]')
        expected = settle_box(_cards(article), bank, stake, settings)
        row = page.locator(f'tr[data-payout-box="{box}"]')
        assert int(row.locator("td[data-net]").get_attribute("data-net")) == expected.net, box
        nets[box] = expected.net
    record_payouts(page, nets)
    screenshot(page, "demo-04-dealer1-siete-paid")
    paid = [e["payload"] for e in demo.events(_table_id(page)) if e["type"] == "payout.recorded"]
    assert sorted((p["box"], p["amount"]) for p in paid[-len(nets) :]) == sorted(nets.items())
    watched.assert_clean()


def test_the_stud_demo_dealer_plays_a_hand_to_showdown_from_the_tablet(
    demo: DemoFloor, context: Any
) -> None:
    watched = Watched(context)
    page = watched.dealer_at(demo, "Stud-1")
    tap(page, "Start hand")
    screenshot(page, "demo-05-dealer3-stud-started")
    deck = DECK.copy()
    random.Random(2026).shuffle(deck)
    play_to_showdown(page, deck)
    screenshot(page, "demo-06-dealer3-stud-showdown")
    assert "Rake taken" in page.inner_text("#stud-result")
    assert page.locator("[data-winner]").count() > 0
    shown = page.locator("#stud-result [data-category]").all_inner_texts()
    assert shown
    assert not any("_" in hand for hand in shown), shown  # names, not the engine's codes
    rake = int(page.inner_text("#rake-total"))
    stacks = [int(s) for s in page.locator("[data-stack]").all_inner_texts()]
    assert sum(stacks) + rake == len(DEMO_PLAYERS) * PLAYER_BUY_IN
    watched.assert_clean()


def test_the_pit_boss_floor_and_the_cage_work_a_fill_on_the_demo_floor(
    demo: DemoFloor, browser: Any
) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
    try:
        boss, cashier = Watched(contexts[0]), Watched(contexts[1])
        floor = boss.sign_in(demo, "pitboss1", "/floor/")
        for table, dealer in demo.dealer_of.items():
            tile = floor.locator("article.tile", has_text=table)
            assert tile.count() == 1, table
            assert dealer in tile.inner_text()
        screenshot(floor, "demo-07-pitboss1-floor")
        cage = cashier.sign_in(demo, "cashier1", "/cage/")
        series = cage.locator("[data-series^='fill-']")
        # The cage lists the slips of the gaming day it is now; during a day's first shift the
        # shift the demo played (the last one ended) closed the day before.
        played_day, _ = demo.ended_shift()
        if played_day == str(floor_clock().shift_of(timezone.now()).gaming_day):
            assert series.count() >= len(demo.dealer_of)  # the ended shift's openers
        else:  # the new day's slips: none yet
            assert series.count() == 0
            assert "None today." in cage.inner_text("main")
        screenshot(cage, "demo-08-cashier1-cage")
        floor.locator("article.tile", has_text="SyM-2").get_by_role("link").click()
        floor.wait_for_url(re.compile(r".*/floor/tables/\d+/$"), timeout=TIMEOUT_MS)
        floor.fill("#slip-chips-100", "5")
        floor.click("[data-request-fill]")
        waiting = cage.locator("article[data-slip^='fill-']")
        waiting.wait_for(timeout=TIMEOUT_MS)  # pushed to the cage, no reload
        screenshot(floor, "demo-09-pitboss1-table-page")
        screenshot(cage, "demo-10-cashier1-fill-waiting")
        slip = str(waiting.get_attribute("data-slip"))
        number = slip.removeprefix("fill-")
        cage.fill(f"#cage-{number}-100", "5")
        cage.click(f"article[data-slip='{slip}'] [data-sign]")
        cage.wait_for_selector(f"article[data-slip='{slip}']", state="detached", timeout=TIMEOUT_MS)
        assert "SyM-2" in cage.locator(f"[data-series='{slip}']").inner_text()
        screenshot(cage, "demo-11-cashier1-fill-issued")
        boss.assert_clean()
        cashier.assert_clean()
    finally:
        for context in contexts:
            context.close()


def test_the_auditor_downloads_a_demo_report_and_verifies_a_log(
    demo: DemoFloor, context: Any
) -> None:
    from pypdf import PdfReader

    watched = Watched(context)
    page = watched.sign_in(demo, "auditor1", "/audit/")
    gaming_day, shift = demo.ended_shift()
    page.fill("#f-day", gaming_day)
    page.select_option("#f-shift", shift)
    page.select_option("#f-table", label="SyM-1")
    page.select_option("#f-kind", "table_shift")
    page.get_by_role("button", name="Show", exact=True).first.click()
    page.wait_for_url(re.compile(r".*/audit/\?.*kind=table_shift"), timeout=TIMEOUT_MS)
    row = page.locator("#report-list tr[data-report]").first
    assert "SyM-1" in row.inner_text()
    with page.expect_download() as download:
        row.locator('[data-download="pdf"]').first.click()
    pdf = download.value.path().read_bytes()
    assert pdf.startswith(b"%PDF")
    assert len(PdfReader(BytesIO(pdf)).pages) >= 1
    assert hashlib.sha256(pdf).hexdigest() in row.inner_text()
    verify = page.locator("td[id^='verify-']").first
    verify.get_by_role("button").click()
    verify.locator('[data-verified="ok"]').wait_for(timeout=TIMEOUT_MS)
    screenshot(page, "demo-12-auditor1-reports")
    watched.assert_clean()
