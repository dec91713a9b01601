"""The reader process's loop: open the port, run a session, reconnect with backoff, stop cleanly."""

import random
import signal
import threading
import time
from collections.abc import Callable

import serial

from devices.link.backoff import Backoff
from devices.link.liveness import Liveness
from devices.link.session import HostSession, OutboundSequence
from devices.link.settings import LinkSettings
from devices.link.sink import LinkCounters, LinkSink

PortOpener = Callable[[str, float], serial.Serial]


def open_host_port(url: str, read_timeout_s: float) -> serial.Serial:
    """One reader per shoe: the port is opened exclusively where the platform supports it."""
    return serial.serial_for_url(
        url, baudrate=115200, timeout=read_timeout_s, write_timeout=2, exclusive=True
    )


def stop_on_signals(stop: threading.Event) -> None:
    """SIGTERM and SIGINT end the loop after the current frame (main thread only)."""
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())


def _wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


class ShoeLinkReader:
    def __init__(
        self,
        url: str,
        sink: LinkSink,
        settings: LinkSettings | None = None,
        *,
        stop: threading.Event | None = None,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
        open_port: PortOpener = open_host_port,
    ) -> None:
        self.url = url
        self.sink = sink
        self.settings = settings or LinkSettings()
        self.stop = stop or threading.Event()
        self.clock = clock
        self._rng = rng or random.SystemRandom()
        self._open_port = open_port
        self.counters = LinkCounters()
        self.liveness = Liveness(
            sink, self.counters, self.settings.heartbeat_interval_s, self.settings.missed_heartbeats
        )
        self._backoff = Backoff(
            self.settings.backoff_base_s, self.settings.backoff_cap_s, self._rng
        )
        self._outbound = OutboundSequence(self._rng.randrange(1, 2**32))
        self._key: bytes | None = None
        self._next_counters_at = 0.0
        self.session: HostSession | None = None

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                port = self._open_port(self.url, self.settings.read_timeout_s)
            except (serial.SerialException, OSError, ValueError):
                self.counters.open_failures += 1
                self._wait(self._backoff.next_delay())
                continue
            self.counters.port_openings += 1
            try:
                self._serve(port)
            except (serial.SerialException, OSError):
                self.counters.port_errors += 1
                self._wait(self._backoff.next_delay())
            finally:
                port.close()
        self.sink.link_counters(self.counters)

    def _serve(self, port: serial.Serial) -> None:
        session = HostSession(
            self.sink,
            self.settings,
            self.liveness,
            self.counters,
            self._outbound,
            nonce_source=self._rng.randbytes,
            wall_clock_ms=_wall_clock_ms,
            previous_key=self._key,
        )
        self.session = session
        while not self.stop.is_set():
            data = port.read(port.in_waiting or 1)
            now = self.clock()
            if data:
                session.receive(data, now)
            session.tick(now)
            self._housekeeping(now)
            out = session.take_output()
            if out:
                port.write(out)
            if session.frames_received:
                self._backoff.reset()
            self._key = session.key or self._key

    def _housekeeping(self, now: float) -> None:
        self.liveness.check(now)
        if now >= self._next_counters_at:
            self.sink.link_counters(self.counters)
            self._next_counters_at = now + self.settings.counters_interval_s

    def _wait(self, delay_s: float) -> None:
        """Sleep before reconnecting, still noticing a silent shoe and a stop request."""
        deadline = self.clock() + delay_s
        while not self.stop.is_set():
            now = self.clock()
            self._housekeeping(now)
            if now >= deadline:
                return
            self.stop.wait(min(0.05, deadline - now))
