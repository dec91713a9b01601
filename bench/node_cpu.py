"""Where the node's CPU went during a benchmark phase, by part: the web server, PostgreSQL
(this database's backends and the cluster's own background processes), Redis, the load
client (this process and its children, the websocket listeners), and everything else.

A target such as "the busy floor on at most half the node" is about the service's parts
together, and a load client on the same two cores takes its share too: the figure for each
part says which of them the next cut must come from, and "other" says how loaded the machine
was by things outside the run. Linux /proc only; processes that ended during the phase are
not counted (the server's workers, the pooled backends and Redis live through it).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

PARTS = ("server", "PostgreSQL", "Redis", "load client", "other")


@dataclass(frozen=True)
class _Process:
    pid: int
    parent: int
    name: str
    seconds: float


def _processes() -> list[_Process]:
    ticks = os.sysconf("SC_CLK_TCK")
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            head, _, tail = (entry / "stat").read_text().rpartition(")")
            fields = tail.split()
            name = head.partition("(")[2]
            if name == "postgres":
                # A backend's title names its database; the cluster's own processes do not.
                title = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
                name = "postgres " + title.decode(errors="replace")
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
        seconds = (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
        found.append(_Process(int(entry.name), int(fields[1]), name, seconds))
    return found


def _descendants(root: int, processes: list[_Process]) -> set[int]:
    children: dict[int, list[int]] = {}
    for process in processes:
        children.setdefault(process.parent, []).append(process.pid)
    found, todo = {root}, [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


Reading = dict[int, tuple[str, float]]  # pid -> (part, CPU seconds so far)


def node_cpu(server_pid: int, database: str) -> Reading:
    """Every live process's CPU seconds so far, each with the part it belongs to."""
    processes = _processes()
    server = _descendants(server_pid, processes)
    client = _descendants(os.getpid(), processes) - server
    parts: Reading = {}
    for process in processes:
        if process.pid in server:
            part = "server"
        elif process.pid in client:
            part = "load client"
        elif process.name == "redis-server":
            part = "Redis"
        elif process.name.startswith("postgres"):
            # "postgres: 15/main: postgres <database> 127.0.0.1(port) idle" is a backend: another
            # database's is another run's. The cluster's own processes serve every database.
            backend = "(" in process.name
            part = "PostgreSQL" if not backend or f" {database} " in process.name else "other"
        else:
            part = "other"
        parts[process.pid] = (part, process.seconds)
    return parts


def spent(before: Reading, after: Reading) -> dict[str, float]:
    """CPU seconds each part spent between two readings (a process born between them counts
    from zero)."""
    totals = dict.fromkeys(PARTS, 0.0)
    for pid, (part, seconds) in after.items():
        earlier = before.get(pid)
        totals[part] += seconds - (earlier[1] if earlier is not None else 0.0)
    return totals


def line(totals: dict[str, float], elapsed: float, requests: int) -> str:
    """'server 40.1 s (8.0 ms/request), PostgreSQL ...; the service 63 % of the node'."""
    cores = os.cpu_count() or 1
    pieces = []
    for part in PARTS:
        per_request = totals[part] / requests * 1000 if requests else 0.0
        pieces.append(f"{part} {totals[part]:.1f} s ({per_request:.1f} ms/request)")
    service = totals["server"] + totals["PostgreSQL"] + totals["Redis"]
    return (
        "node CPU: " + ", ".join(pieces)
        + f"; the service (server, PostgreSQL, Redis) {service / elapsed / cores:.0%} of the node"
    )  # fmt: skip
