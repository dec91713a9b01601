"""Two web nodes behind HAProxy, as the floor runs them (docs/scale-out.md), on 127.0.0.1.

Each node is what `make serve` runs (gunicorn supervising uvicorn workers on casino.asgi,
production settings) in a session of its own, so that killing a node kills its master and its
workers at once, as a machine that loses power does. Each node runs the test's node settings
(production plus tests/integration/die_after_commit.py's switch), so the test can make a node
die right after it commits a command and before it answers. HAProxy's configuration is written
by the test into its own folder, as docs/scale-out.md gives it for production: round robin, a
health check on /api/ready, a request whose connection fails sent to the other node, and a
write whose node died after receiving it answered 502 to its client, not resent.
"""

from __future__ import annotations

import base64
import http.client
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from django.db import connection

from tests.integration.die_after_commit import SWITCH_VARIABLE, killed_record

PROJECT = Path(__file__).resolve().parents[2]
HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"
# The nodes and the test sign sessions with the same key: a session the test opens is the
# nodes' session too.
NODE_SECRET_KEY = "two-node-test-only-secret-" + "s" * 40
NODE_FIELD_KEY = base64.urlsafe_b64encode(b"two-node-test-only-field-key-32b").decode()


def haproxy_available() -> bool:
    return Path(HAPROXY).is_file() and os.access(HAPROXY, os.X_OK)


def test_database_url() -> str:
    """The database pytest made, so the nodes see what the test sees."""
    params = connection.settings_dict
    host = params["HOST"] or "127.0.0.1"
    port = params["PORT"] or 5432
    return f"postgres://{params['USER'] or 'postgres'}@{host}:{port}/{params['NAME']}"


def answers(port: int, path: str) -> int | None:
    """The status of one GET, or None when nothing answers."""
    client = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        client.request("GET", path)
        return client.getresponse().status
    except OSError:
        return None
    finally:
        client.close()


def wait_until(predicate: object, what: str, *, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not callable(predicate) or not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


class WebNode:
    def __init__(self, name: str, port: int, folder: Path) -> None:
        self.name, self.port = name, port
        self.folder = folder / name
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "static").mkdir(exist_ok=True)
        self.access_log = self.folder / "access.log"
        self.switch = self.folder / "die-after-commit"
        self.process: subprocess.Popen[bytes] | None = None

    def environment(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(
            CASINO_ENV="production", DATABASE_URL=test_database_url(),
            SECRET_KEY=NODE_SECRET_KEY, CASINO_FIELD_KEY=NODE_FIELD_KEY,
            ALLOWED_HOSTS="127.0.0.1", SECURE_SSL_REDIRECT="0",
            CASINO_VAR_DIR=str(self.folder), CASINO_BIND=f"127.0.0.1:{self.port}",
            WEB_CONCURRENCY="1", CASINO_ACCESS_LOG=str(self.access_log), LOG_LEVEL="WARNING",
            DJANGO_SETTINGS_MODULE="tests.integration.node_settings",
            **{SWITCH_VARIABLE: str(self.switch)},
        )  # fmt: skip
        return env

    def start(self) -> None:
        gunicorn = Path(sys.executable).parent / "gunicorn"
        with (self.folder / "server.log").open("ab") as log:
            self.process = subprocess.Popen(
                [str(gunicorn), "casino.asgi:application", "-c", "casino/gunicorn_conf.py"],
                cwd=PROJECT, env=self.environment(), stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip

    def wait_ready(self) -> None:
        wait_until(lambda: answers(self.port, "/api/ready") == 200, f"node {self.name} ready")

    def die_after_next_commit(self, *, seconds: float = 20) -> tuple[str, str]:
        """Arm the node's switch and wait until the node has killed itself (master and workers)
        after committing a table command it never answered; that command's (key, path)."""
        assert self.process is not None
        self.switch.touch()
        self.process.wait(timeout=seconds)
        key, path = killed_record(self.switch).read_text().split()
        return key, path

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def requests_served(self, fragment: str) -> int:
        if not self.access_log.exists():
            return 0
        return sum(fragment in line for line in self.access_log.read_text().splitlines())

    def server_log(self) -> str:
        return (self.folder / "server.log").read_text(errors="replace")


def haproxy_config(port: int, nodes: list[WebNode]) -> str:
    """Round robin over the nodes; a node is taken out after two failed /api/ready checks half
    a second apart. A request whose connection fails never reached a node: it is sent again,
    to another node (redispatch). A read whose node dies before answering is sent again too.
    A write (any method but GET and HEAD) is never resent by the balancer once a node has it:
    the client gets a 502 and sends it again itself, with its Idempotency-Key (see
    docs/scale-out.md for why)."""
    servers = "\n".join(
        f"    server {node.name} 127.0.0.1:{node.port} check" for node in nodes
    )  # fmt: skip
    return f"""global
    maxconn 512

defaults
    mode http
    timeout connect 1s
    timeout client 30s
    timeout server 20s
    retries 3
    option redispatch 1
    retry-on conn-failure empty-response response-timeout

frontend floor
    bind 127.0.0.1:{port}
    default_backend web

backend web
    balance roundrobin
    option httpchk
    http-check send meth GET uri /api/ready ver HTTP/1.1 hdr Host 127.0.0.1
    http-check expect status 200
    default-server inter 500ms fall 2 rise 2
    http-request disable-l7-retry unless METH_GET
{servers}
"""


class Balancer:
    def __init__(self, port: int, nodes: list[WebNode], folder: Path) -> None:
        self.port = port
        self.config = folder / "haproxy.cfg"
        self.config.write_text(haproxy_config(port, nodes))
        self.log = folder / "haproxy.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        check = subprocess.run([HAPROXY, "-c", "-f", str(self.config)], capture_output=True)
        assert check.returncode == 0, check.stdout + check.stderr
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [HAPROXY, "-db", "-f", str(self.config)], stdout=log, stderr=subprocess.STDOUT
            )
        wait_until(lambda: answers(self.port, "/api/ready") == 200, "the balancer")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
