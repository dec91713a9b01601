"""`make serve`'s server for real: gunicorn supervising uvicorn workers on casino.asgi with
production settings, static files from WhiteNoise, the probes over plain HTTP, and a graceful
stop on SIGTERM."""

from __future__ import annotations

import base64
import http.client
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

PROJECT = Path(__file__).resolve().parents[2]
PORT = 9133
pytestmark = pytest.mark.django_db(transaction=True)


def production_env(var_dir: Path) -> dict[str, str]:
    database = connection.settings_dict
    env = dict(os.environ)
    env.update(
        CASINO_ENV="production",
        # The test database pytest made, so the server sees what this test sees.
        DATABASE_URL=f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}"
        f"/{database['NAME']}",
        SECRET_KEY="server-test-only-" + "k" * 50,
        # Production refuses to start without its own key for the shoe keys at rest.
        CASINO_FIELD_KEY=base64.urlsafe_b64encode(b"server-test-only-field-key-32byt").decode(),
        ALLOWED_HOSTS="127.0.0.1",
        CASINO_VAR_DIR=str(var_dir),
        CASINO_BIND=f"127.0.0.1:{PORT}",
        WEB_CONCURRENCY="2",
        LOG_LEVEL="INFO",
    )
    return env


def settled_heaps(log: str) -> list[int]:
    """How many objects each worker froze once it had loaded, as its log line says."""
    return [int(n) for n in re.findall(r"Worker heap settled: (\d+) objects frozen", log)]


def fetch(path: str, *, behind_tls: bool = False) -> tuple[int, bytes, dict[str, str]]:
    """One GET, redirects not followed; `behind_tls` as the balancer that ended TLS says."""
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    headers = {"X-Forwarded-Proto": "https"} if behind_tls else {}
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, response.read(), {k.lower(): v for k, v in response.getheaders()}
    finally:
        connection.close()


def test_the_production_server_serves_probes_and_static_files_and_stops_gracefully(
    tmp_path: Path,
) -> None:
    env = production_env(tmp_path)
    bin_dir = Path(sys.executable).parent
    manage = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"]
    subprocess.run(manage, cwd=PROJECT, env=env, check=True, timeout=120)
    log = (tmp_path / "server.log").open("wb")
    server = subprocess.Popen(
        [str(bin_dir / "gunicorn"), "casino.asgi:application", "-c", "casino/gunicorn_conf.py"],
        cwd=PROJECT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status, body, _ = fetch("/api/live")
                break
            except OSError:
                assert time.monotonic() < deadline, (tmp_path / "server.log").read_text()
                time.sleep(0.3)
        assert (status, body) == (200, b'{"status": "live"}')  # plain HTTP: no redirect
        status, body, _ = fetch("/api/ready")
        assert status == 200, body
        status, body, headers = fetch("/static/admin/css/base.css", behind_tls=True)
        assert status == 200
        assert b"body" in body
        assert headers.get("server") == "uvicorn"
        status, _, headers = fetch("/api/health")
        assert status == 301  # everything else goes to HTTPS in production
        # The first worker may answer while the second is still loading: stop once both are up.
        while len(settled_heaps((tmp_path / "server.log").read_text())) < 2:
            assert time.monotonic() < deadline + 60, (tmp_path / "server.log").read_text()
            time.sleep(0.3)
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=40) == 0
        log.close()
    output = (tmp_path / "server.log").read_text()
    assert "Handling signal: term" in output
    assert "Shutting down: Master" in output
    # Each worker froze what it loaded, the views among it (casino/worker_heap.py).
    frozen = settled_heaps(output)
    assert len(frozen) == 2
    assert min(frozen) > 100_000
