"""A simulated shoe on a real line to the table's reader, each its own process.

The relay joins two pseudo-terminals in this process; `run_shoe` reads one end against the
server's database, the simulator (`shoe_simulator --interactive`) draws a card per line on
its stdin and logs each draw, so the test knows which card left the shoe.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from devices.simulator.dealing import read_draw_log
from devices.simulator.lines import PtyLine
from devices.simulator.relay import Relay

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class ShoeProcesses:
    simulator: subprocess.Popen[str]
    reader: subprocess.Popen[bytes]
    log_path: Path

    def draws(self) -> list[dict[str, Any]]:
        return read_draw_log(self.log_path) if self.log_path.exists() else []

    def draw(self, timeout_s: float = 10.0) -> str:
        """One card out of the shoe; its code, once the shoe has logged it."""
        before = len(self.draws())
        stdin: IO[str] | None = self.simulator.stdin
        assert stdin is not None
        stdin.write("\n")
        stdin.flush()
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            drawn = self.draws()
            if len(drawn) > before:
                return str(drawn[-1]["card"])
            time.sleep(0.05)
        raise AssertionError("the simulated shoe did not draw")


@contextmanager
def shoe_at_table(env: dict[str, str], serial: str, folder: Path) -> Iterator[ShoeProcesses]:
    device_line, host_line = PtyLine(folder / "shoe-tty"), PtyLine(folder / "reader-tty")
    relay = Relay(device_line, host_line)
    relay.start()
    log_path = folder / "draws.jsonl"
    manage = [sys.executable, str(ROOT / "manage.py")]
    reader = subprocess.Popen(
        [*manage, "run_shoe", "--device", serial, "--port", host_line.url],
        env=env,
        stdout=(folder / "run_shoe.log").open("wb"),
        stderr=subprocess.STDOUT,
    )
    simulator = subprocess.Popen(
        [*manage, "shoe_simulator", "--port", device_line.url, "--serial", serial,
         "--deck", "spanish", "--seed", "5", "--interactive", "--heartbeat-ms", "300",
         "--log", str(log_path)],
        env=env,
        stdin=subprocess.PIPE,
        stdout=(folder / "simulator.log").open("w"),
        stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip
    try:
        yield ShoeProcesses(simulator, reader, log_path)
    finally:
        for process in (simulator, reader):
            process.terminate()
        for process in (simulator, reader):
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        relay.close()
