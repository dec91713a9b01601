"""The browser tier: a real server process, real Chromium, the floor set up by its own script.

The server is `manage.py runserver` (daphne: HTTP and websockets in one process) on its own
SQLite file, so that it, the shoe's reader and the setup script share one database while the
test process never touches it. With REDIS_URL the pushes cross processes on channels-redis
(the shoe's reader is a process of its own); without it the in-memory layer serves the server.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
PORT = int(os.environ.get("BROWSER_TIER_PORT", "9141"))
SCREENSHOTS = ROOT / "var" / "screenshots"
PYTHON = sys.executable


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "/tests/browser/" in str(item.path):
            item.add_marker(pytest.mark.browser)


def server_env(var_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("DATABASE_URL", None)  # the server's own SQLite file, shared with the scripts
    env.update(
        CASINO_VAR_DIR=str(var_dir),
        CELERY_TASK_ALWAYS_EAGER="1",
        DJANGO_SETTINGS_MODULE="casino.settings",
        PYTHONUNBUFFERED="1",
    )
    return env


class Floor:
    """The running server and the script that sets up and reads its floor."""

    def __init__(self, var_dir: Path, env: dict[str, str]) -> None:
        self.var_dir = var_dir
        self.env = env
        self.url = f"http://127.0.0.1:{PORT}"
        self.made = 0

    def script(self, *args: Any) -> Any:
        command = [PYTHON, str(ROOT / "tests/browser/floor_script.py"), *map(str, args)]
        done = subprocess.run(command, env=self.env, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.strip().splitlines()[-1])

    def table(self, game: str) -> dict[str, Any]:
        self.made += 1
        prefix = "SyM" if game == "siete_y_medio" else "Stud"
        return dict(self.script("table", game, f"{prefix}-B{self.made}"))

    def events(self, table_id: int) -> list[dict[str, Any]]:
        return list(self.script("events", table_id))


def _wait_for(url: str, process: subprocess.Popen[bytes], timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the server exited before it answered")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"the server did not answer at {url}")


@pytest.fixture(scope="package")
def floor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Floor]:
    if not CHROMIUM.exists():
        pytest.skip("the browser tier needs Debian's chromium at /usr/bin/chromium")
    var_dir = tmp_path_factory.mktemp("browser-floor")
    env = server_env(var_dir)
    migrate = [PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"]
    subprocess.run(migrate, cwd=ROOT, env=env, check=True)
    log = (var_dir / "server.log").open("wb")
    server = subprocess.Popen(
        [PYTHON, "manage.py", "runserver", f"127.0.0.1:{PORT}", "--noreload"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        _wait_for(f"http://127.0.0.1:{PORT}/login/", server)
        yield Floor(var_dir, env)
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()


# Package scope, not session: Playwright's sync API keeps an event loop running in the main
# thread while it is open, and every test after the browser tier in the same run would see it
# (a test's own `run_until_complete` refuses to start under a running loop).
@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    yield context
    context.close()


def screenshot(page: Any, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def clean_screenshots() -> None:
    shutil.rmtree(SCREENSHOTS, ignore_errors=True)
