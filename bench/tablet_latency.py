"""The dealer's tablet in Chromium: tap → updated screen, shoe card commit → on screen, page weight.

Starts its own server (`manage.py runserver`, daphne) on 127.0.0.1:9142, a fresh floor, the
simulated shoe and its `run_shoe` reader, and plays Siete y Medio rounds: every tap of the
dealer is timed in the page from the click to the re-read fragment in the DOM, and every card
the shoe deals from its commit (the event's recorded_at) to the moment the page shows it.

    .venv/bin/python bench/tablet_latency.py --rounds 3                      # embedded default
    DATABASE_URL=postgres://… REDIS_URL=redis://… .venv/bin/python bench/tablet_latency.py

Side by side: `--tree /path/to/another/worktree` serves the pages from that tree (its own
`manage.py`, the same database schema), while the floor, the shoe and the browser stay this
tree's, so two trees are timed by one driver; `--port` keeps to a port range of one's own.

Without REDIS_URL the shoe's reader (another process) cannot push to the server's in-memory
channel layer, so the shoe figure needs REDIS_URL; the taps and the weight are measured in both.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import CHROMIUM, Floor, _wait_for, server_env  # noqa: E402
from tests.browser.shoe_line import shoe_at_table  # noqa: E402
from tests.browser.tablet_driver import button, seq, sign_in  # noqa: E402

PORT = 9142
OBSERVER = """() => {
  window.__seen = [];
  const note = () => {
    const node = document.querySelector('#table-state');
    const s = node ? Number(node.dataset.seq) : null;
    if (s !== window.__last) { window.__last = s; window.__seen.push([s, Date.now()]); }
  };
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true});
  note();
}"""
TIMED_TAP = """async ([name, amountId, amount, known]) => {
  const before = Number(document.querySelector('#table-state').dataset.seq);
  if (amountId) document.getElementById(amountId).value = String(amount);
  const target = [...document.querySelectorAll('button[data-command]')]
    .find(b => b.textContent.trim() === name);
  const start = performance.now();
  target.click();
  if (known) document.getElementById('pick-unseen').click();
  await new Promise((resolve, reject) => {
    setTimeout(() => reject(new Error(name + ": no update; " +
      document.getElementById('refusal').textContent)), 10000);
    const check = () => {
      const node = document.querySelector('#table-state');
      if (node && Number(node.dataset.seq) > before) { resolve(); return true; }
      return false;
    };
    if (check()) return;
    const observer = new MutationObserver(() => { if (check()) observer.disconnect(); });
    observer.observe(document.body, {subtree: true, childList: true, attributes: true});
  });
  return performance.now() - start;
}"""


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[18] if len(values) >= 20 else max(values)


def start_server(
    var_dir: Path, tree: Path, port: int
) -> tuple[subprocess.Popen[bytes], dict[str, str]]:
    env = server_env(var_dir)
    if os.environ.get("DATABASE_URL"):
        env["DATABASE_URL"] = os.environ["DATABASE_URL"]
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=tree, env=env, check=True
    )
    log = (var_dir / "server.log").open("wb")
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=tree, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    _wait_for(f"http://127.0.0.1:{port}/login/", server)
    return server, env


def weigh(page: Any, url: str) -> dict[str, int]:
    """The tablet page and its own CSS and JS, raw and gzip-compressed, as the browser got them."""
    bodies: dict[str, bytes] = {}

    def keep(response: Any) -> None:
        kind = response.request.resource_type
        if kind in ("document", "stylesheet", "script"):
            bodies[response.url] = response.body()

    page.on("response", keep)
    page.goto(url)
    page.wait_for_load_state("networkidle")
    page.remove_listener("response", keep)
    raw = sum(len(body) for body in bodies.values())
    packed = sum(len(gzip.compress(body, 6)) for body in bodies.values())
    return {"files": len(bodies), "raw_bytes": raw, "gzip_bytes": packed}


def tap(
    page: Any,
    name: str,
    timings: list[float],
    amount_id: str = "",
    amount: int = 0,
    known: bool = False,
) -> None:
    timings.append(page.evaluate(TIMED_TAP, [name, amount_id, amount, known]))


def play_round(page: Any, shoe: Any, taps: list[float]) -> None:
    tap(page, "Start round", taps)
    for box in range(1, 7):
        tap(page, f"Wager · box {box}", taps, f"amount-{box}", 10 * box)
    for _ in range(7):  # one card to each box and the bank
        before = seq(page)
        shoe.draw()
        page.wait_for_function(
            f"() => Number(document.querySelector('#table-state').dataset.seq) > {before}"
        )
    for box in range(1, 7):
        if button(page, f"Stand · box {box}").count():
            tap(page, f"Stand · box {box}", taps)
    if button(page, "Reveal bank card").count():
        tap(page, "Reveal bank card", taps, known=True)  # the shoe read it: nothing to pick
    for _ in range(6):  # the bank draws from the shoe while it must
        if "Bank's turn" not in page.inner_text("#phase"):
            break
        before = seq(page)
        shoe.draw()
        page.wait_for_function(
            f"() => Number(document.querySelector('#table-state').dataset.seq) > {before}"
        )


def shoe_latencies(page: Any, events: list[dict[str, Any]]) -> list[float]:
    seen: list[list[float]] = page.evaluate("() => window.__seen")
    latencies = []
    for event in events:
        if event["source"] != "shoe" or event["type"] != "card.dealt":
            continue
        committed = datetime.fromisoformat(event["recorded_at"]).timestamp() * 1000
        shown = next((at for s, at in seen if s is not None and s >= event["seq"]), None)
        if shown is not None:
            latencies.append(shown - committed)
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--port", type=int, default=PORT)
    parser.add_argument("--tree", type=Path, default=ROOT, help="the tree whose server is timed")
    options = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        var_dir = Path(folder)
        server, env = start_server(var_dir, options.tree.resolve(), options.port)
        floor = Floor(var_dir, env)
        floor.url = f"http://127.0.0.1:{options.port}"
        try:
            figures = run(floor, var_dir, options.rounds, sync_playwright)
        finally:
            server.terminate()
            server.wait(timeout=10)
    figures["tree"] = str(options.tree.resolve())
    figures["database"] = "postgresql" if os.environ.get("DATABASE_URL") else "sqlite"
    figures["channel_layer"] = "redis" if os.environ.get("REDIS_URL") else "in-memory"
    print(json.dumps(figures, indent=2))


def run(floor: Floor, var_dir: Path, rounds: int, sync_playwright: Any) -> dict[str, Any]:
    # A unique name per run: the PostgreSQL database may hold the tables of earlier runs.
    floor.made = int(datetime.now().timestamp())
    table = floor.table("siete_y_medio")
    serial = f"SIM-T{table['table']}"
    print(f"table {table['table']}", file=sys.stderr)
    live_shoe = bool(os.environ.get("REDIS_URL"))
    if live_shoe:
        floor.script("shoe", table["table"], serial)
    taps: list[float] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        sign_in(page, floor.url, table["username"], table["password"])
        weight = weigh(page, f"{floor.url}/tablet/tables/{table['table']}/")
        # Every re-read of the fragment: one per change is the aim (a tap's own read, and the
        # push only for changes made elsewhere), so a second read of one change shows here.
        reads: list[str] = []
        page.on("request", lambda r: reads.append(r.url) if r.url.endswith("/state") else None)
        shoe_ms: list[float] = []
        if live_shoe:
            with shoe_at_table(floor.env, serial, var_dir) as shoe:
                for _ in range(100):
                    if page.locator("#shoe-feeds").count():
                        break
                    page.wait_for_timeout(300)
                    page.reload()
                else:
                    raise SystemExit("the shoe did not come online")
                print("shoe online", file=sys.stderr)
                page.evaluate(OBSERVER)
                for number in range(rounds):
                    play_round(page, shoe, taps)
                    print(f"round {number + 1} played", file=sys.stderr)
                shoe_ms = shoe_latencies(page, floor.events(table["table"]))
        else:
            page.evaluate(OBSERVER)
            tap(page, "Start round", taps)
            for _ in range(rounds):
                for box in range(1, 7):
                    tap(page, f"Wager · box {box}", taps, f"amount-{box}", 10 * box)
                    tap(page, f"Cancel wager · box {box}", taps)
        browser.close()
    result: dict[str, Any] = {
        "taps": len(taps),
        "tap_ms": {"median": round(statistics.median(taps), 1), "p95": round(p95(taps), 1)},
        "page_weight": weight,
        "fragment_reads": len(reads),
    }
    if shoe_ms:
        result["shoe_cards"] = len(shoe_ms)
        result["shoe_commit_to_screen_ms"] = {
            "median": round(statistics.median(shoe_ms), 1),
            "p95": round(p95(shoe_ms), 1),
        }
    return result


if __name__ == "__main__":
    main()
