"""serve_demo for real: a seeded floor in its own SQLite file, the server, the demo shoe and its
reader as processes; the shoe's cards reach SyM-1 through the reader; SIGTERM stops all three."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

HTTP_PORT, SHOE_PORT = 9152, 9153
BASE = f"http://127.0.0.1:{HTTP_PORT}"


def _environment(var_dir: Path) -> dict[str, str]:
    env = {**os.environ, "CASINO_VAR_DIR": str(var_dir)}
    for name in ("DATABASE_URL", "REDIS_URL", "CASINO_ENV"):
        env.pop(name, None)  # the embedded default: this test's own SQLite file
    return env


def _manage(*arguments: str) -> list[str]:
    return [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), *arguments]


def _call(method: str, path: str, token: str | None = None, body: Any = None) -> Any:
    request = urllib.request.Request(BASE + path, method=method)
    if token:
        request.add_header("Authorization", f"Token {token}")
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, data, timeout=10) as answer:
        return json.loads(answer.read())


def _wait_for(check: Callable[[], Any], seconds: float) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if result := check():
                return result
        except OSError:
            pass
        time.sleep(0.3)
    raise AssertionError(f"not within {seconds} s")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], Path]]:
    env = _environment(tmp_path)
    for step in (("migrate", "--noinput", "-v", "0"), ("seed_demo",)):
        subprocess.run(_manage(*step), env=env, check=True, timeout=180, capture_output=True)
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            _manage("serve_demo", f"127.0.0.1:{HTTP_PORT}", "--shoe-port", str(SHOE_PORT)),
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        yield server, log
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_the_demo_shoe_deals_to_sym_1_and_stops_with_the_server(
    served: tuple[subprocess.Popen[bytes], Path],
) -> None:
    server, log = served
    _wait_for(lambda: _call("GET", "/api/health")["status"] == "ok", 60)
    pids = re.search(r"simulator pid (\d+), reader pid (\d+)", log.read_text())
    assert pids is not None, log.read_text()
    children = [int(pid) for pid in pids.groups()]
    assert all(_alive(pid) for pid in children)

    login = {"username": "dealer1", "password": "dealer1-demo"}
    token = _call("POST", "/api/auth/token", body=login)["token"]
    tables = {table["name"]: table["id"] for table in _call("GET", "/api/tables", token)}
    table = tables["SyM-1"]
    _call("POST", f"/api/tables/{table}/siete/start-round", token)
    _call("POST", f"/api/tables/{table}/siete/place-wager", token, {"box": 1, "amount": 20})

    def dealt() -> bool:
        state = _call("GET", f"/api/tables/{table}", token)["state"]
        return bool(state["boxes"][0]["cards"]) and state["phase"] != "dealing"

    _wait_for(dealt, 30)  # the box's card and the bank's, from the shoe through the reader

    server.send_signal(signal.SIGTERM)
    assert server.wait(timeout=30) == 0
    assert not any(_alive(pid) for pid in children)
    output = log.read_text()
    assert "Demo shoe SIM-SyM-1 stopped." in output
    assert "events committed {'accepted'" in output
    assert "stopped before every drawn card was acknowledged" not in output  # a clean finish
