"""The pit boss's floor with many tables in play: first paint, and how soon a change shows.

Run from the project root on a scratch PostgreSQL database and Redis (it writes tables there):

    DATABASE_URL=postgres://... REDIS_URL=redis://... python bench/floor_page.py --tables 200

It sets up the tables once (names `BF-001`...: each opened with a count and a round in play),
starts the server (`manage.py runserver`, daphne) on --port, opens --pages floor pages in
Chromium, measures each page's first contentful paint and the server's answer, then makes
--changes buy-ins at random tables and times, for every open page, from just before the write
until that table's tile is redrawn. Figures go to stdout as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench._django import PROJECT, setup

PREFIX = "BF-"
BOSS = "bench-floor-boss"
OBSERVER = """() => {
  window.__redrawn = [];
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes)
      if (node.id && node.id.startsWith("tile-"))
        window.__redrawn.push([node.id, performance.timeOrigin + performance.now()]);
  }).observe(document.body, {childList: true, subtree: true});
}"""


def person(username: str, role: str) -> Any:
    from django.contrib.auth.models import Group, User

    user, created = User.objects.get_or_create(username=username)
    if created:
        user.set_password(f"{username}-pw")
        user.save()
        user.groups.set([Group.objects.get(name=role)])
    return user


def build_floor(count: int) -> list[tuple[int, Any]]:
    """`count` Siete y Medio tables, each open with a dealer and a round in play."""
    from tables import roles
    from tables.engine import siete
    from tables.models import DealerAssignment, Table
    from tables.services import custody
    from tables.services.commands import table_command
    from tables.services.floor import dealer_assign, round_open, table_create

    boss = person(BOSS, roles.PIT_BOSS)
    made = []
    for index in range(1, count + 1):
        name = f"{PREFIX}{index:03d}"
        table = Table.objects.filter(name=name).first()
        if table is not None:
            dealer = DealerAssignment.objects.get(table=table, ended_at__isnull=True).dealer
            made.append((table.pk, dealer))
            continue
        dealer = person(f"bench-floor-dealer-{index:03d}", roles.DEALER)
        table = table_create(
            name=name,
            game="siete_y_medio",
            seat_count=6,
            settings={"min_stake": 10, "max_stake": 500, "chip": 5},
        )
        dealer_assign(table_id=table.pk, dealer=dealer, by=boss)
        custody.custody_open(table_id=table.pk, pit_boss=boss, chips={"100": 5000})
        custody.count_confirm(table_id=table.pk, dealer=dealer, closing=False)
        round_open(table_id=table.pk, actor=dealer)
        for command in (
            siete.PlaceWager(1, 20),
            siete.RecordCard("7O", source="shoe"),
            siete.RecordCard("3E", source="shoe"),
        ):
            table_command(table_id=table.pk, command=command, actor=dealer, source="shoe")
        made.append((table.pk, dealer))
    return made


def start_server(port: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ, CELERY_TASK_ALWAYS_EAGER="1", PYTHONUNBUFFERED="1")
    command = [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]
    server = subprocess.Popen(command, cwd=PROJECT, env=env, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/login/", timeout=2):
                return server
        except OSError:
            time.sleep(0.3)
    server.terminate()
    raise SystemExit("the server did not start")


def sign_in(page: Any, base: str) -> None:
    page.goto(f"{base}/login/")
    page.fill("#id_username", BOSS)
    page.fill("#id_password", f"{BOSS}-pw")
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/floor/", timeout=60_000)


def paint(page: Any, base: str) -> dict[str, float]:
    page.goto(f"{base}/floor/", timeout=60_000)
    page.wait_for_selector('#live-status[data-state="online"]', timeout=60_000)
    timing = page.evaluate(
        """() => {
          const nav = performance.getEntriesByType("navigation")[0];
          const fcp = performance.getEntriesByName("first-contentful-paint")[0];
          return {answer_ms: nav.responseEnd - nav.requestStart,
                  first_paint_ms: fcp ? fcp.startTime : null};
        }"""
    )
    return dict(timing)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def measure(args: argparse.Namespace, tables: list[tuple[int, Any]]) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    from tables.services import custody

    base = f"http://127.0.0.1:{args.port}"
    rng = Random(14)
    writer = ThreadPoolExecutor(max_workers=1)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox"]
        )
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        first = context.new_page()
        sign_in(first, base)
        pages = [first, *(context.new_page() for _ in range(args.pages - 1))]
        paints = [paint(page, base) for page in pages]
        for page in pages:
            page.evaluate(OBSERVER)
        latencies: list[float] = []
        for _ in range(args.changes):
            table_id, dealer = rng.choice(tables)
            started = time.time() * 1000
            # Off Playwright's event loop: the ORM refuses to run inside one.
            writer.submit(
                custody.buy_in_record, table_id=table_id, amount=100, actor=dealer
            ).result()
            tile = f"tile-{table_id}"
            for page in pages:
                page.wait_for_function(
                    f"() => window.__redrawn.some(([id, at]) => id === '{tile}' && at > {started})",
                    timeout=30_000,
                )
                redrawn = page.evaluate(
                    f"() => Math.min(...window.__redrawn.filter(([id, at]) => id === '{tile}'"
                    f" && at > {started}).map(([id, at]) => at))"
                )
                latencies.append(float(redrawn) - started)
            time.sleep(args.pause)
        browser.close()
    first_paints = [p["first_paint_ms"] for p in paints if p["first_paint_ms"] is not None]
    answers = [p["answer_ms"] for p in paints]
    return {
        "tables": len(tables),
        "pages": args.pages,
        "changes": args.changes,
        "first_paint_ms": {"each": [round(v) for v in first_paints], "max": max(first_paints)},
        "server_answer_ms": {"each": [round(v) for v in answers], "max": max(answers)},
        "change_to_tile_ms": {
            "samples": len(latencies),
            "p50": round(statistics.median(latencies)),
            "p95": round(percentile(latencies, 0.95)),
            "max": round(max(latencies)),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--pages", type=int, default=5)
    parser.add_argument("--changes", type=int, default=20)
    parser.add_argument("--pause", type=float, default=0.3)
    parser.add_argument("--port", type=int, default=9172)
    args = parser.parse_args()
    setup(require_postgres=True)
    if not os.environ.get("REDIS_URL"):
        sys.exit("Set REDIS_URL: the pushes cross from this process to the server on Redis.")
    built = time.monotonic()
    tables = build_floor(args.tables)
    setup_s = time.monotonic() - built
    server = start_server(args.port)
    try:
        figures = measure(args, tables)
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(json.dumps({"setup_s": round(setup_s, 1), **figures}, indent=1))


if __name__ == "__main__":
    main()
