"""The production server as a subprocess, and a small HTTP client for the load benchmarks.

The server is what `make serve` runs: gunicorn supervising uvicorn workers on casino.asgi,
with CASINO_ENV=production, on 127.0.0.1 only. The client keeps one connection alive per
dealer (as a tablet does) and signs in through /api/auth/token for a real token.
"""

from __future__ import annotations

import base64
import http.client
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

PROJECT = Path(__file__).resolve().parent.parent
SECRET = "bench-only-secret-key-" + "x" * 40
# Production refuses the development field key; the benchmarks store no shoe key.
FIELD_KEY = base64.urlsafe_b64encode(b"bench-only-field-key-of-32-bytes").decode()


class Server:
    def __init__(self, port: int, workers: int, log_path: Path) -> None:
        self.port, self.workers, self.log_path = port, workers, log_path
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Server:
        env = dict(os.environ)
        env.update(
            CASINO_ENV="production", SECRET_KEY=os.environ.get("SECRET_KEY", SECRET),
            SECURE_SSL_REDIRECT="0", ALLOWED_HOSTS="127.0.0.1",
            CASINO_BIND=f"127.0.0.1:{self.port}", WEB_CONCURRENCY=str(self.workers),
            LOG_LEVEL="WARNING", CASINO_FIELD_KEY=os.environ.get("CASINO_FIELD_KEY", FIELD_KEY),
        )  # fmt: skip
        gunicorn = Path(sys.executable).parent / "gunicorn"
        self.log_path.parent.mkdir(parents=True, exist_ok=True)  # var/ is not in a fresh clone
        self.log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            [str(gunicorn), "casino.asgi:application", "-c", "casino/gunicorn_conf.py"],
            cwd=PROJECT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if Client(self.port).get("/api/ready")[0] == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.3)
        self.__exit__()
        raise RuntimeError(f"the server did not become ready; see {self.log_path}")

    def __exit__(self, *exc: Any) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # graceful: requests in flight finish
            self.process.wait(timeout=60)
        self.log.close()

    def cpu_seconds(self) -> float:
        """User + system CPU of the master and its workers so far (Linux /proc)."""
        assert self.process is not None
        pids = [self.process.pid, *_children(self.process.pid)]
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0.0
        for pid in pids:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except FileNotFoundError:
                continue
            total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
        return total


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (FileNotFoundError, ProcessLookupError):
                continue
            if int(stat[1]) == pid:
                found.append(int(entry.name))
    return found


# The server closes a connection idle this long (casino/gunicorn_conf.py `keepalive`).
SERVER_KEEPALIVE_SECONDS = 5.0


class Client:
    """One kept-alive HTTP/1.1 connection; every call returns (status, body, seconds).

    A connection idle nearly as long as the server keeps one is opened afresh first, as a
    browser does: the server may have closed it, and a request sent on it would be lost
    with no answer (seen between a benchmark's phases)."""

    def __init__(self, port: int, token: str | None = None) -> None:
        self.port = port
        self.headers = {"Content-Type": "application/json"}
        if token:
            self.headers["Authorization"] = f"Token {token}"
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.used_at = time.perf_counter()

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
        payload = None if body is None else json.dumps(body)
        start = time.perf_counter()
        if start - self.used_at > SERVER_KEEPALIVE_SECONDS - 1:
            self.connection.close()  # the next request connects again, inside the timing
        try:
            self.connection.request(method, path, payload, self.headers)
            response = self.connection.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()  # the next call reconnects
            raise
        self.used_at = time.perf_counter()
        elapsed = self.used_at - start
        try:
            decoded = json.loads(raw) if raw else None
        except ValueError:
            decoded = raw.decode(errors="replace")
        return response.status, decoded, elapsed

    def get(self, path: str) -> tuple[int, Any, float]:
        return self.request("GET", path)

    def post(self, path: str, body: Any) -> tuple[int, Any, float]:
        return self.request("POST", path, body)


def sign_in(port: int, username: str, password: str) -> str:
    credentials = {"username": username, "password": password}
    status, body, _ = Client(port).post("/api/auth/token", credentials)
    if status != 200:
        raise RuntimeError(f"sign-in of {username} failed: {status} {body}")
    return str(body["token"])


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0
