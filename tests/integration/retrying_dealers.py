"""Dealer clients that play whole Siete y Medio rounds and Stud hands over HTTP, as tablets do
through a balancer that may lose a node at any moment.

Every command carries an Idempotency-Key. A request that gets no answer (the connection is
cut, refused or times out) or a gateway's 502/503/504 is sent again with the SAME key and the
same body until a node answers it: a command the dead node had already applied is answered from
its idempotency record, one it had not is applied once. What the clients got is kept, so the
test can hold the log to it. The play itself (what to send next) is the benchmarks' dealers'
own, bench/dealer_play.py.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from bench.dealer_play import TablePlay

GATEWAY_STATUSES = frozenset({502, 503, 504})
# A command gets this long to find a node that answers it.
GIVE_UP_SECONDS = 30.0
CUT = (OSError, http.client.HTTPException)


@dataclass
class Answer:
    key: str
    path: str
    status: int
    seqs: list[int]
    attempts: int
    replayed: bool


@dataclass
class Record:
    answers: list[Answer] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    server_errors: list[str] = field(default_factory=list)
    cut_requests: int = 0
    rounds: int = 0
    answered_after: list[float] = field(default_factory=list)


class UnansweredError(Exception):
    """No node answered a command within GIVE_UP_SECONDS."""


class RetryingClient:
    def __init__(self, port: int, token: str | None = None) -> None:
        self.port = port
        self.headers = {"Content-Type": "application/json"}
        if token:
            self.headers["Authorization"] = f"Token {token}"
        self.connection: http.client.HTTPConnection | None = None

    def once(
        self, method: str, path: str, body: Any, headers: dict[str, str]
    ) -> tuple[int, Any, dict[str, str]]:
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=25)
        payload = None if body is None else json.dumps(body)
        try:
            self.connection.request(method, path, payload, {**self.headers, **headers})
            response = self.connection.getresponse()
            raw = response.read()
        except CUT:
            self.connection.close()
            self.connection = None
            raise
        try:
            decoded = json.loads(raw) if raw else None
        except ValueError:
            decoded = raw.decode(errors="replace")
        return response.status, decoded, {k.lower(): v for k, v in response.getheaders()}

    def until_answered(
        self, method: str, path: str, body: Any, record: Record, key: str | None = None
    ) -> tuple[int, Any, dict[str, str], int]:
        """(status, body, headers, attempts) of the first real answer, the same request (and
        key) sent again after every cut or gateway error."""
        headers = {"Idempotency-Key": key} if key else {}
        deadline = time.monotonic() + GIVE_UP_SECONDS
        attempts = 0
        while True:
            attempts += 1
            try:
                status, decoded, got = self.once(method, path, body, headers)
                if status not in GATEWAY_STATUSES:
                    return status, decoded, got, attempts
            except CUT:
                pass
            record.cut_requests += 1
            if time.monotonic() > deadline:
                raise UnansweredError(f"{method} {path} (key {key}) after {attempts} attempts")
            time.sleep(0.1)


class RetryingDealer(TablePlay):
    """One table's dealer: plays until `stop` is set, one request every `interval` seconds."""

    def __init__(
        self, port: int, token: str, table_id: int, game: str, seed: int, interval: float
    ) -> None:
        super().__init__(game, random.Random(seed), max_boxes=3)
        self.client = RetryingClient(port, token)
        self.table_id = table_id
        self.interval = interval
        self.record = Record()
        self.failure: BaseException | None = None

    def run(self, stop: threading.Event) -> None:
        try:
            while not stop.is_set():
                self.play_one()
                self.record.rounds += 1
        except BaseException as error:  # reported by the test, with the table's name
            self.failure = error

    def post(self, path: str, **data: Any) -> dict[str, Any] | None:
        time.sleep(self.interval)
        key = uuid.uuid4().hex
        full = f"/api/tables/{self.table_id}/{path}"
        status, body, headers, attempts = self.client.until_answered(
            "POST", full, data, self.record, key
        )
        if status >= 500:
            self.record.server_errors.append(f"{status} {path}: {body}")
            raise AssertionError(f"a node answered {status} to {path}: {body}")
        if status >= 300:
            self.record.refusals.append(f"{status} {path}: {body}")
            return None
        self.record.answers.append(
            Answer(
                key=key, path=path, status=status,
                seqs=[event["seq"] for event in body["events"]], attempts=attempts,
                replayed=headers.get("idempotent-replayed") == "true",
            )
        )  # fmt: skip
        self.record.answered_after.append(time.monotonic())
        return dict(body["state"])

    def state(self) -> dict[str, Any]:
        status, body, _, _ = self.client.until_answered(
            "GET", f"/api/tables/{self.table_id}", None, self.record
        )
        assert status == 200, body
        return dict(body["state"])


def sign_in(port: int, username: str, password: str) -> str:
    record = Record()
    credentials = {"username": username, "password": password}
    status, body, _, _ = RetryingClient(port).until_answered(
        "POST", "/api/auth/token", credentials, record
    )
    assert status == 200, body
    return str(body["token"])
