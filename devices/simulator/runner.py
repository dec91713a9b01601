"""Runs a simulated shoe on a real pyserial port until its cards are drawn and acknowledged."""

import queue
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import serial

from devices.simulator.dealing import CardDealer

READ_TIMEOUT_S = 0.005
REOPEN_DELAY_S = 0.1
NETWORK_SCHEMES = ("socket://", "rfc2217://")


def open_device_port(url: str) -> serial.Serial:
    return serial.serial_for_url(
        url, baudrate=115200, timeout=READ_TIMEOUT_S, write_timeout=2, exclusive=True
    )


def retransmit_after_for(url: str) -> float:
    """300 ms on a local line; 1 s through a serial device server, where TCP adds its own delays."""
    return 1.0 if url.startswith(NETWORK_SCHEMES) else 0.3


@dataclass(frozen=True, slots=True)
class DrawPlan:
    cards: int | None = None
    draw_interval_s: float = 0.05
    requests: "queue.Queue[str | None] | None" = None


class SimulatorRunner:
    def __init__(
        self,
        url: str,
        dealer: CardDealer,
        plan: DrawPlan,
        stop: threading.Event | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.url = url
        self.dealer = dealer
        self.plan = plan
        self.stop = stop or threading.Event()
        self.clock = clock
        self.port_openings = 0
        self._no_more_requests = False
        self._next_draw = 0.0

    def run(self) -> None:
        self.dealer.start(self.clock())
        self._next_draw = self.clock()
        while not self.stop.is_set() and not self.finished:
            try:
                port = open_device_port(self.url)
            except serial.SerialException:
                self.stop.wait(REOPEN_DELAY_S)
                continue
            self.port_openings += 1
            try:
                self._serve(port)
            except (serial.SerialException, OSError):
                self.stop.wait(REOPEN_DELAY_S)
            finally:
                port.close()

    @property
    def finished(self) -> bool:
        device = self.dealer.device
        if self.plan.cards is not None:
            return self.dealer.cards_drawn >= self.plan.cards and device.all_acknowledged
        return self._no_more_requests and device.all_acknowledged

    def _serve(self, port: serial.Serial) -> None:
        device = self.dealer.device
        while not self.stop.is_set() and not self.finished:
            data = port.read(port.in_waiting or 1)
            now = self.clock()
            if data:
                device.receive(data, now)
            self._draw_when_due(now)
            device.tick(now)
            out = device.take_output()
            if out:
                port.write(out)

    def _draw_when_due(self, now: float) -> None:
        if self.plan.requests is not None:
            self._draw_on_request(now, self.plan.requests)
            return
        if self.plan.cards is None or self.dealer.cards_drawn >= self.plan.cards:
            return
        if now >= self._next_draw:
            self.dealer.draw_one(now)
            self._next_draw = max(self._next_draw + self.plan.draw_interval_s, now - 1.0)

    def _perform(self, line: str, now: float) -> None:
        try:
            self.dealer.perform(line, now)
        except ValueError as error:
            print(error, file=sys.stderr)

    def _draw_on_request(self, now: float, requests: "queue.Queue[str | None]") -> None:
        while not self._no_more_requests:
            try:
                line = requests.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self._no_more_requests = True
            else:
                self._perform(line, now)
