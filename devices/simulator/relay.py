"""A fault-injecting relay between a shoe's line and a reader's line.

It flips bits, drops and duplicates bytes, injects garbage bursts, and cuts and restores the
reader's line on a schedule: what a worn cable, a noisy floor or a serial device server can do.
"""

import random
import select
import threading
import time
from dataclasses import dataclass, field

from devices.simulator.lines import Line


@dataclass(frozen=True, slots=True)
class LineFaults:
    bit_flip: float = 0.0
    drop: float = 0.0
    duplicate: float = 0.0
    garbage_burst: float = 0.0
    max_garbage: int = 64


@dataclass(frozen=True, slots=True)
class LineBreaks:
    every_s: float | None = None
    down_s: float = 0.5


@dataclass
class RelayCounters:
    bytes_forwarded: int = 0
    bits_flipped: int = 0
    bytes_dropped: int = 0
    bytes_duplicated: int = 0
    garbage_bursts: int = 0
    breaks: int = 0
    by_direction: dict[str, int] = field(default_factory=dict)


class FaultyWire:
    def __init__(self, faults: LineFaults, rng: random.Random, counters: RelayCounters) -> None:
        self.faults = faults
        self._rng = rng
        self._counters = counters

    def carry(self, data: bytes) -> bytes:
        faults, rng, counters = self.faults, self._rng, self._counters
        out = bytearray()
        if faults.garbage_burst and rng.random() < faults.garbage_burst:
            out += rng.randbytes(rng.randint(1, faults.max_garbage))
            counters.garbage_bursts += 1
        for byte in data:
            if faults.drop and rng.random() < faults.drop:
                counters.bytes_dropped += 1
                continue
            if faults.bit_flip and rng.random() < faults.bit_flip:
                byte ^= 1 << rng.randrange(8)
                counters.bits_flipped += 1
            out.append(byte)
            if faults.duplicate and rng.random() < faults.duplicate:
                out.append(byte)
                counters.bytes_duplicated += 1
        return bytes(out)


class Relay(threading.Thread):
    def __init__(
        self,
        device_line: Line,
        host_line: Line,
        faults: LineFaults | None = None,
        breaks: LineBreaks | None = None,
        seed: int = 0,
    ) -> None:
        super().__init__(daemon=True, name="shoe-link-relay")
        self.device_line = device_line
        self.host_line = host_line
        self.breaks = breaks or LineBreaks()
        self.counters = RelayCounters()
        self._rng = random.Random(seed)
        self._wire = FaultyWire(faults or LineFaults(), self._rng, self.counters)
        self.stop = threading.Event()
        self.paused = threading.Event()

    def run(self) -> None:
        next_break = _after(self.breaks.every_s)
        restore_at: float | None = None
        while not self.stop.is_set():
            now = time.monotonic()
            if next_break is not None and now >= next_break:
                self.host_line.cut()
                self.counters.breaks += 1
                restore_at, next_break = now + self.breaks.down_s, None
            if restore_at is not None and now >= restore_at:
                self.host_line.restore()
                restore_at, next_break = None, _after(self.breaks.every_s)
            self._pump()

    def _pump(self) -> None:
        sides = dict.fromkeys(self.device_line.watched(), self.device_line)
        sides |= dict.fromkeys(self.host_line.watched(), self.host_line)
        readable, _, _ = select.select(list(sides), [], [], 0.01)
        for fd in readable:
            source = sides[fd]
            data = source.pull(fd)
            if not data or self.paused.is_set():
                continue
            target = self.host_line if source is self.device_line else self.device_line
            direction = "to_host" if target is self.host_line else "to_device"
            carried = self._wire.carry(data)
            self.counters.bytes_forwarded += len(carried)
            self.counters.by_direction[direction] = self.counters.by_direction.get(
                direction, 0
            ) + len(carried)
            target.push(carried)

    def close(self) -> None:
        self.stop.set()
        if self.is_alive():
            self.join(timeout=2)
        self.device_line.close()
        self.host_line.close()


def _after(seconds: float | None) -> float | None:
    return None if seconds is None else time.monotonic() + seconds
