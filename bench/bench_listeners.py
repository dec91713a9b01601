"""Websocket listeners for the load benchmarks: open tablets (one per table, on its table's
socket) and floor pages (every table's notices), signed in through the login page as a browser
is, each noting when every "table N changed at seq S" arrives.

They run in a process of their own, so their event loop does not compete for the load
client's interpreter lock; `time.perf_counter` is the system's monotonic clock on Linux, the
same in both processes, so a notice's arrival is compared with the moment the dealer's client
had the write's answer.
"""

from __future__ import annotations

import asyncio
import bisect
import http.client
import json
import multiprocessing
import os
import re
import time
import urllib.parse
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

# (table id, seq) -> when the notice arrived
Arrivals = dict[tuple[int, int], float]


@dataclass
class Heard:
    tablets: Arrivals = field(default_factory=dict)
    floors: list[Arrivals] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    connected: int = 0


def session_cookie(port: int, username: str, password: str) -> str:
    """Sign in at /login/ (its form, with its CSRF token) and return the session's cookie."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/login/")
    page = connection.getresponse()
    html = page.read().decode()
    cookies = _cookies(page.headers.get_all("Set-Cookie") or [])
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert token is not None, "the login page has no CSRF token"
    form = urllib.parse.urlencode(
        {"username": username, "password": password, "csrfmiddlewaretoken": token.group(1)}
    )
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()),
        "Referer": f"http://127.0.0.1:{port}/login/",
    }
    connection.request("POST", "/login/", form, headers)
    answer = connection.getresponse()
    answer.read()
    cookies.update(_cookies(answer.headers.get_all("Set-Cookie") or []))
    if answer.status != 302 or "sessionid" not in cookies:
        raise RuntimeError(f"signing in {username} at /login/ failed: {answer.status}")
    return f"sessionid={cookies['sessionid']}"


def _cookies(headers: list[str]) -> dict[str, str]:
    found = {}
    for header in headers:
        name, _, value = header.split(";", 1)[0].partition("=")
        found[name.strip()] = value.strip()
    return found


class Listeners:
    """The listener process: `start()` returns once every socket is open; `stop()` closes
    them and returns what they heard."""

    def __init__(
        self,
        port: int,
        tablets: list[tuple[int, str]],
        floor_cookies: list[str],
        floor_path: str = "/ws/floor/",
    ):
        self.port, self.tablets, self.floor_cookies = port, tablets, floor_cookies
        context = multiprocessing.get_context("fork")
        self.parent, child = context.Pipe()
        arguments = (port, tablets, floor_cookies, floor_path, child)
        self.process = context.Process(target=_run, args=arguments)

    def start(self) -> int:
        self.process.start()
        if not self.parent.poll(120):
            raise RuntimeError("the websocket listeners did not connect within 120 s")
        return int(self.parent.recv())

    def peek(self) -> Heard:
        """What they have heard so far; they go on listening."""
        self.parent.send("peek")
        heard: Heard = self.parent.recv()
        return heard

    def cpu_seconds(self) -> float:
        """The listener process's user + system CPU so far (Linux /proc): if it neared a
        whole core, the notices' lateness would be partly its own."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> Heard:
        self.parent.send("stop")
        heard: Heard = self.parent.recv()
        self.process.join(timeout=30)
        return heard


def _run(
    port: int, tablets: list[tuple[int, str]], floors: list[str], floor_path: str, pipe: Connection
) -> None:
    asyncio.run(_listen(port, tablets, floors, floor_path, pipe))


async def _listen(
    port: int, tablets: list[tuple[int, str]], floors: list[str], floor_path: str, pipe: Any
) -> None:
    from websockets.asyncio.client import connect

    heard = Heard(floors=[{} for _ in floors])
    origin = f"http://127.0.0.1:{port}"

    async def open_socket(path: str, cookie: str) -> Any:
        return await connect(
            f"ws://127.0.0.1:{port}{path}",
            additional_headers={"Cookie": cookie},
            origin=origin,  # type: ignore[arg-type]
            open_timeout=60,
            ping_interval=None,
        )

    async def relay(socket: Any, into: Arrivals) -> None:
        try:
            async for message in socket:
                arrived = time.perf_counter()
                notice = json.loads(message)
                # A drawn tile (the floor's, `--floor-tiles`) shows its seq as the notice does.
                into.setdefault((int(notice["table"]), int(notice["seq"])), arrived)
        except Exception as error:  # a closed socket: counted, the run goes on
            heard.refused.append(f"{type(error).__name__}: {error}")

    sockets = []
    for table_id, cookie in tablets:
        sockets.append((await open_socket(f"/ws/tables/{table_id}/", cookie), heard.tablets))
    for index, cookie in enumerate(floors):
        sockets.append((await open_socket(floor_path, cookie), heard.floors[index]))
    heard.connected = len(sockets)
    tasks = [asyncio.create_task(relay(socket, into)) for socket, into in sockets]
    pipe.send(len(sockets))
    loop = asyncio.get_running_loop()
    while await loop.run_in_executor(None, pipe.recv) == "peek":
        pipe.send(heard)
    for socket, _ in sockets:
        await socket.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    pipe.send(heard)


def delivery_ms(acks: list[tuple[int, int, float]], arrivals: Arrivals) -> tuple[list[float], int]:
    """Each acknowledged write's notice time minus its answer's (negative: the notice came
    first), in ms, and how many acknowledged writes no notice reached."""
    delays, missed = [], 0
    for table_id, seq, answered in acks:
        arrived = arrivals.get((table_id, seq))
        if arrived is None:
            missed += 1
        else:
            delays.append((arrived - answered) * 1000)
    return delays, missed


def covered_ms(acks: list[tuple[int, int, float]], arrivals: Arrivals) -> tuple[list[float], int]:
    """Each acknowledged write timed to the first notice of its table at its seq or a later
    one, in ms, and how many writes no such notice reached. A page re-reads the table as of
    the notice it hears, so that notice shows the write: the drain sends each group only a
    table's newest seq when several are waiting, and a superseded seq is not a lost one."""
    by_table: dict[int, list[tuple[int, float]]] = {}
    for (table_id, seq), arrived in arrivals.items():
        by_table.setdefault(table_id, []).append((seq, arrived))
    # Per table: the seqs in order, and the earliest arrival of any notice at or after each.
    earliest: dict[int, tuple[list[int], list[float]]] = {}
    for table_id, heard in by_table.items():
        heard.sort()
        first = [arrived for _, arrived in heard]
        for index in range(len(first) - 2, -1, -1):
            first[index] = min(first[index], first[index + 1])
        earliest[table_id] = ([seq for seq, _ in heard], first)
    delays, missed = [], 0
    for table_id, seq, answered in acks:
        seqs, first = earliest.get(table_id, ([], []))
        index = bisect.bisect_left(seqs, seq)
        if index == len(seqs):
            missed += 1
        else:
            delays.append((first[index] - answered) * 1000)
    return delays, missed
