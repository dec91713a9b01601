"""The demo shoe beside the demo server: a serial device server on the shoe's registry port, the
simulated shoe on its line, the reader (`run_shoe`) on the other end, and a dealer's hand that
pulls a card from the shoe whenever the table waits for one.

The shoe and the reader are child processes (as they are on a floor, one reader per shoe); the
line and the hand are threads of the serving process, which stops them all when it stops.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO
from urllib.parse import urlsplit

from django.conf import settings
from django.db import close_old_connections

from devices import demo_notices
from devices.models import Device
from devices.registry.enrollment import current_binding
from devices.simulator.lines import PtyLine, TcpLine
from devices.simulator.relay import Relay
from tables.models import TableEvent
from tables.selectors import table_live_view

# The dealer waits this long before pulling a card, so a screen shows each one arrive; while
# wagers are still being placed the first card waits longer (it closes the betting).
CARD_AFTER_S = 1.0
FIRST_CARD_AFTER_S = 4.0
CARD_IN_FLIGHT_S = 3.0
POLL_S = 0.5
STOP_WAIT_S = 10.0
SHOE_FINISH_S = 3.0


class FixedTcpLine(TcpLine):
    """A serial device server on a fixed 127.0.0.1 port (the one the registry names)."""

    def __init__(self, port: int) -> None:
        self._listener = socket.create_server(("127.0.0.1", port), reuse_port=False)
        self._listener.setblocking(False)
        self.port = port
        self._client: socket.socket | None = None
        self._up = True


def registry_port(device: Device) -> int:
    """The TCP port of a shoe enrolled on ``socket://127.0.0.1:<port>``."""
    parts = urlsplit(device.port_url)
    if parts.scheme != "socket" or parts.port is None:
        raise ValueError(f"{device.serial} is not on a socket:// line ({device.port_url}).")
    return parts.port


def manage_py(*arguments: str) -> list[str]:
    return [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), *arguments]


@dataclass
class DemoShoe:
    """One demo shoe's line, processes and pacing; ``start`` then ``stop``."""

    serial: str
    port: int
    line_dir: Path
    seed: int = 1
    children: list[subprocess.Popen[bytes]] = field(default_factory=list)
    relay: Relay | None = None
    hand: CardHand | None = None
    notices: demo_notices.HeadNotices | None = None

    def start(self) -> None:
        self.line_dir.mkdir(parents=True, exist_ok=True)
        shoe_line = PtyLine(self.line_dir / f"{self.serial}.tty")
        self.relay = Relay(shoe_line, FixedTcpLine(self.port))
        self.relay.start()
        simulator = subprocess.Popen(
            manage_py(
                "shoe_simulator",
                *("--port", shoe_line.url, "--serial", self.serial, "--interactive"),
                *("--seed", str(self.seed)),
            ),
            stdin=subprocess.PIPE,
            process_group=0,  # Ctrl-C reaches the server only; the children are stopped in order
        )
        reader = subprocess.Popen(
            manage_py("run_shoe", "--device", self.serial, "--port", self.url),
            process_group=0,
        )
        self.children = [simulator, reader]
        assert simulator.stdin is not None
        device = Device.objects.get(serial=self.serial)
        self.hand = CardHand(device, simulator.stdin)
        self.hand.start()
        binding = current_binding(device)
        if binding is not None and demo_notices.needed():
            self.notices = demo_notices.HeadNotices(
                binding.table_id,
                demo_notices.table_head(binding.table_id),
                demo_notices.server_loop(),
            )
            self.notices.start()

    @property
    def url(self) -> str:
        return f"socket://127.0.0.1:{self.port}"

    def stop(self) -> None:
        """Stop the hand; the shoe first (the end of its input lets it finish once its reader
        acknowledged every card), then the reader with SIGTERM, killing either if it hangs;
        then the line."""
        for thread in (self.hand, self.notices):
            if thread is not None:
                thread.halt.set()
                thread.join(timeout=STOP_WAIT_S)
        for child in self.children:
            if child.stdin is not None:
                child.stdin.close()
                _wait(child, SHOE_FINISH_S)
            if child.poll() is None:
                child.terminate()
            _wait(child, STOP_WAIT_S)
            if child.poll() is None:
                child.kill()
                child.wait()
        if self.relay is not None:
            self.relay.close()


def _wait(child: subprocess.Popen[bytes], seconds: float) -> None:
    with contextlib.suppress(subprocess.TimeoutExpired):
        child.wait(timeout=seconds)


class CardHand(threading.Thread):
    """Pulls a card from the simulated shoe (an empty line on its stdin) when the shoe's table
    offers ``record_card`` and has been quiet for a moment. It asks the same live view as the
    dealer's tablet, so it never needs to know which game the table plays."""

    def __init__(self, device: Device, shoe_stdin: IO[bytes]) -> None:
        super().__init__(daemon=True, name=f"demo-hand-{device.serial}")
        self.device = device
        self.shoe_stdin = shoe_stdin
        self.halt = threading.Event()
        self.cards_pulled = 0

    def run(self) -> None:
        last_pull: tuple[int, float] | None = None
        while not self.halt.wait(POLL_S):
            try:
                head = self._wants_card(last_pull)
            finally:
                close_old_connections()
            if head is None:
                continue
            try:
                self.shoe_stdin.write(b"\n")
                self.shoe_stdin.flush()
            except (BrokenPipeError, ValueError):
                return  # the shoe stopped
            self.cards_pulled += 1
            last_pull = (head, time.monotonic())

    def _wants_card(self, last_pull: tuple[int, float] | None) -> int | None:
        """The table's head seq when it waits for a card from this shoe, else None."""
        binding = current_binding(self.device)
        if binding is None:
            return None
        table = binding.table
        last = TableEvent.objects.filter(table=table).order_by("-seq").first()
        if last is None:
            return None
        in_flight = last_pull is not None and last_pull[0] == last.seq
        if in_flight and time.monotonic() - last_pull[1] < CARD_IN_FLIGHT_S:  # type: ignore[index]
            return None  # the card pulled last is still on its way
        view = table_live_view(table)
        if not any(command["type"] == "record_card" for command in view.get("legal", [])):
            return None
        wait_s = FIRST_CARD_AFTER_S if view.get("phase") == "betting" else CARD_AFTER_S
        quiet_s = time.time() - last.recorded_at.timestamp()
        return last.seq if quiet_s >= wait_s else None
