"""Collaborators for the link's tests: an in-memory sink and helpers to wire real ports.

The in-memory sink lives here, in tests, on purpose: the product's sink writes to the database.
"""

import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from devices.codec.cards import DeckType, card_code
from devices.codec.message_types import Message
from devices.codec.messages import CardDrawn, CardMisread, CutCard, Heartbeat, Hello
from devices.link.reader import ShoeLinkReader
from devices.link.settings import LinkSettings
from devices.link.sink import DeviceVerdict, LinkCounters
from devices.simulator.dealing import CardDealer, DrawLog
from devices.simulator.device import DeviceIdentity, DeviceTiming, ShoeDevice
from devices.simulator.faults import FaultPlan
from devices.simulator.lines import Line, PtyLine, TcpLine
from devices.simulator.relay import LineBreaks, LineFaults, Relay
from devices.simulator.runner import DrawPlan, SimulatorRunner, retransmit_after_for
from devices.simulator.shoe import SimulatedShoe


@dataclass
class MemorySink:
    """Commits are durable the moment they are in the dict; a lock stands in for the database."""

    keys: dict[str, bytes | None] = field(default_factory=dict)
    accept_unknown: bool = True
    commits: list[tuple[int, int, Message]] = field(default_factory=list)
    commit_times: dict[tuple[int, int], float] = field(default_factory=dict)
    hellos: list[tuple[Hello, int]] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    gaps: list[tuple[int, int, int]] = field(default_factory=list)
    transitions: list[tuple[str, float]] = field(default_factory=list)
    heartbeats: int = 0
    last_heartbeat_at: float = 0.0
    last_counters: LinkCounters | None = None
    _store: dict[tuple[int, int], Message] = field(default_factory=dict)
    _last_seq: dict[int, int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def device_hello(self, hello: Hello, boot_id: int) -> DeviceVerdict:
        self.hellos.append((hello, boot_id))
        if hello.serial in self.keys:
            return DeviceVerdict(True, self.keys[hello.serial])
        return DeviceVerdict(self.accept_unknown, None, "unknown device")

    def session_refused(self, hello: Hello, reason: str) -> None:
        self.refusals.append(reason)

    def last_committed_seq(self, boot_id: int) -> int:
        """The seq committed last for this boot (not the largest: seq wraps past 65535)."""
        with self._lock:
            return self._last_seq.get(boot_id, 0)

    def already_committed(self, boot_id: int, seq: int) -> bool:
        with self._lock:
            return (boot_id, seq) in self._store

    def commit(self, boot_id: int, seq: int, message: Message) -> str:
        with self._lock:
            if (boot_id, seq) in self._store:
                raise AssertionError(f"({boot_id}, {seq}) committed twice")
            self._store[(boot_id, seq)] = message
            self._last_seq[boot_id] = seq
            self.commits.append((boot_id, seq, message))
            self.commit_times[(boot_id, seq)] = time.perf_counter()
        return "applied"

    def heartbeat(self, boot_id: int, heartbeat: Heartbeat) -> None:
        self.heartbeats += 1
        self.last_heartbeat_at = time.monotonic()

    def open_gap(self, boot_id: int, first_missing: int, last_missing: int) -> None:
        self.gaps.append((boot_id, first_missing, last_missing))

    def offline(self) -> None:
        self.transitions.append(("offline", time.monotonic()))

    def online(self) -> None:
        self.transitions.append(("online", time.monotonic()))

    def link_counters(self, counters: LinkCounters) -> None:
        self.last_counters = counters

    def recorded_draws(self, deck: DeckType) -> list[dict[str, Any]]:
        """The committed draws in commit order, shaped like the simulator's log entries."""
        with self._lock:
            commits = list(self.commits)
        draws = []
        for boot_id, seq, message in commits:
            if isinstance(message, CardDrawn):
                code = card_code(deck, message.card) or "unidentified"
                uid = message.uid.hex()
            elif isinstance(message, CutCard):
                code, uid = "cut", ""
            elif isinstance(message, CardMisread):
                code, uid = "misread", ""
            else:
                continue
            draws.append(
                {
                    "draw_index": message.draw_index,
                    "card": code,
                    "boot_id": boot_id,
                    "seq": seq,
                    "uid": uid,
                }
            )
        return draws


def logged_draws(log: DrawLog) -> list[dict[str, Any]]:
    return [{k: v for k, v in entry.items() if k != "shoe"} for entry in log.entries]


def wait_until(predicate: Callable[[], bool], timeout_s: float, step_s: float = 0.01) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step_s)
    return predicate()


def fast_link_settings(**overrides: Any) -> LinkSettings:
    values: dict[str, Any] = {
        "heartbeat_interval_s": 0.2,
        "prompt_interval_s": 0.2,
        "auth_timeout_s": 1.0,
        "backoff_base_s": 0.05,
        "backoff_cap_s": 0.4,
        "table_id": "SYM-01",
    }
    values.update(overrides)
    return LinkSettings(**values)


def make_simulator(
    url: str,
    *,
    serial: str = "SHOE-0001",
    cards: int | None = 20,
    seed: int = 1,
    key: bytes | None = None,
    faults: FaultPlan | None = None,
    deck: DeckType = DeckType.SPANISH,
    decks: int = 2,
    draw_interval_s: float = 0.0,
    heartbeat_interval_s: float = 0.2,
    log_path: Path | None = None,
) -> SimulatorRunner:
    rng = random.Random(seed)
    timing = DeviceTiming(
        heartbeat_interval_s=heartbeat_interval_s, retransmit_after_s=retransmit_after_for(url)
    )
    device = ShoeDevice(
        DeviceIdentity(serial=serial, key=key), timing, random.Random(rng.getrandbits(64)), faults
    )
    dealer = CardDealer(device, SimulatedShoe(deck, decks, rng), DrawLog(log_path))
    return SimulatorRunner(url, dealer, DrawPlan(cards=cards, draw_interval_s=draw_interval_s))


@dataclass
class Wiring:
    relay: Relay
    device_url: str
    host_url: str


@contextmanager
def relayed_line(
    tmp_path: Path,
    *,
    host_over_tcp: bool = False,
    faults: LineFaults | None = None,
    breaks: LineBreaks | None = None,
    seed: int = 0,
) -> Iterator[Wiring]:
    """Two real lines joined by the relay: the shoe opens a pty, the reader a pty or a TCP port."""
    device_line = PtyLine(tmp_path / "shoe-tty")
    host_line: Line
    if host_over_tcp:
        host_line = tcp = TcpLine()
        host_url = tcp.url
    else:
        host_line = pty = PtyLine(tmp_path / "reader-tty")
        host_url = pty.url
    relay = Relay(device_line, host_line, faults, breaks, seed)
    relay.start()
    try:
        yield Wiring(relay, device_line.url, host_url)
    finally:
        relay.close()


@contextmanager
def running(*workers: SimulatorRunner | ShoeLinkReader) -> Iterator[None]:
    threads = [threading.Thread(target=w.run, daemon=True) for w in workers]
    for thread in threads:
        thread.start()
    try:
        yield
    finally:
        for worker in workers:
            worker.stop.set()
        for thread in threads:
            thread.join(timeout=5)
