"""Driving the tablet as a dealer does: sign in, tap, pick a card, wait for the screen."""

from __future__ import annotations

import re
from typing import Any

TIMEOUT_MS = 10_000
TABLE_SETTINGS: dict[str, dict[str, Any]] = {
    "siete_y_medio": {"min_stake": 10, "max_stake": 500, "chip": 5},
    "seven_card_stud": {"small_bet": 20, "chip": 1, "rake_percent": "5", "rake_cap": 30},
}


def sign_in(page: Any, base_url: str, username: str, password: str) -> None:
    page.goto(f"{base_url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r".*/tablet/tables/\d+/$"), timeout=TIMEOUT_MS)
    wait_live(page)


def wait_live(page: Any) -> None:
    page.wait_for_selector('#live-status[data-state="online"]', timeout=TIMEOUT_MS)


def seq(page: Any) -> int:
    return int(page.get_attribute("#table-state", "data-seq"))


def wait_past(page: Any, before: int) -> None:
    page.wait_for_function(
        f"() => Number(document.querySelector('#table-state').dataset.seq) > {before}",
        timeout=TIMEOUT_MS,
    )


def button(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


def has_button(page: Any, name: str) -> bool:
    return bool(button(page, name).count() > 0)


def tap(page: Any, name: str, *, card: str | None = None, known: bool = False) -> None:
    """Tap a button (and a card in the picker, or its no-card button); wait for the answer."""
    before = seq(page)
    button(page, name).click()
    if card is not None:
        page.locator("#card-picker").get_by_role("button", name=card, exact=True).click()
    elif known:
        page.click("#pick-unseen")
    wait_past(page, before)


def wager(page: Any, box: int, amount: int) -> None:
    page.fill(f"#amount-{box}", str(amount))
    tap(page, f"Wager · box {box}")


def box_text(page: Any, box: int) -> str:
    return str(page.locator(f'article[data-box="{box}"]').inner_text())


def tap_first(page: Any, selector: str, *, card: str | None = None) -> None:
    """Tap the first button matching `selector` (and `card` in the picker)."""
    before = seq(page)
    page.locator(selector).first.click()
    if card is not None:
        page.locator("#card-picker").get_by_role("button", name=card, exact=True).click()
    wait_past(page, before)


def present(page: Any, selector: str) -> bool:
    return bool(page.locator(selector).count() > 0)


def payout_button(page: Any, box: int) -> Any:
    """A settled box's payout button, found by its command and box, never by its words: they
    say Collect, Push or Pay with the amount, in the dealer's language."""
    return page.locator(f'article[data-box="{box}"] button[data-command="record_payout"]')


def payout_name(box: int, net: int) -> str:
    """What the payout button of a box settled at `net` says to an English-speaking dealer."""
    if net < 0:
        return f"Collect {-net} · box {box}"
    if net == 0:
        return f"Push: the stake stays · box {box}"
    return f"Pay {net} · box {box}"


def record_payouts(page: Any, nets: dict[int, int]) -> None:
    """Tap each settled box's payout button, once its accessible name says what it does, and
    see the results table mark the box paid with its net."""
    from playwright.sync_api import expect

    for box, net in nets.items():
        before = seq(page)
        expect(payout_button(page, box)).to_have_accessible_name(payout_name(box, net))
        payout_button(page, box).click()
        wait_past(page, before)
    for box, net in nets.items():
        assert f"✔ {net}" in page.locator(f'tr[data-payout-box="{box}"]').inner_text(), box
