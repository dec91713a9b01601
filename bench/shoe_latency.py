"""Latency from the simulated shoe's write of a CARD_DRAWN frame to its commit by the reader.

Both ends run real pyserial on pseudo-terminals joined by the (fault-free) relay, in one process so
one clock times both. The sink here commits to memory; the database sink adds its own commit time.

Run: .venv/bin/python bench/shoe_latency.py [--cards N] [--interval-ms MS]
"""

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from devices.codec.cards import DeckType
from devices.codec.messages import CardDrawn
from devices.link.reader import ShoeLinkReader
from devices.link.settings import LinkSettings
from devices.link.sink import DeviceVerdict
from devices.simulator.dealing import CardDealer, DrawLog
from devices.simulator.device import DeviceIdentity, DeviceTiming, ShoeDevice
from devices.simulator.lines import PtyLine
from devices.simulator.relay import Relay
from devices.simulator.runner import DrawPlan, SimulatorRunner
from devices.simulator.shoe import SimulatedShoe


class TimingSink:
    """Commits to a dict and notes when; enough to time the link, not a product sink."""

    def __init__(self) -> None:
        self.committed_at: dict[tuple[int, int], float] = {}

    def device_hello(self, hello, boot_id):
        return DeviceVerdict(True, None)

    def session_refused(self, hello, reason):
        pass

    def last_committed_seq(self, boot_id):
        return max((s for b, s in self.committed_at if b == boot_id), default=0)

    def already_committed(self, boot_id, seq):
        return (boot_id, seq) in self.committed_at

    def commit(self, boot_id, seq, message):
        if isinstance(message, CardDrawn):
            self.committed_at[(boot_id, seq)] = time.perf_counter()
        else:
            self.committed_at[(boot_id, seq)] = 0.0
        return "applied"

    def heartbeat(self, boot_id, heartbeat):
        pass

    def open_gap(self, boot_id, first_missing, last_missing):
        pass

    def offline(self):
        pass

    def online(self):
        pass

    def link_counters(self, counters):
        pass


def run(cards: int, interval_s: float) -> list[float]:
    written_at: dict[tuple[int, int], float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        shoe_line, reader_line = PtyLine(Path(tmp) / "shoe"), PtyLine(Path(tmp) / "reader")
        relay = Relay(shoe_line, reader_line)
        relay.start()
        device = ShoeDevice(DeviceIdentity("BENCH-1"), DeviceTiming(), random.Random(1))

        def note_write(event) -> None:
            if isinstance(event.message, CardDrawn):
                written_at[(event.boot_id, event.seq)] = time.perf_counter()

        device.on_first_transmission = note_write
        dealer = CardDealer(device, SimulatedShoe(DeckType.FRENCH, 8, random.Random(2)), DrawLog())
        simulator = SimulatorRunner(shoe_line.url, dealer, DrawPlan(cards, interval_s))
        sink = TimingSink()
        reader = ShoeLinkReader(reader_line.url, sink, LinkSettings(table_id="BENCH"))
        threads = [threading.Thread(target=w.run, daemon=True) for w in (reader, simulator)]
        for thread in threads:
            thread.start()
        threads[1].join(timeout=cards * interval_s + 60)
        reader.stop.set()
        threads[0].join(timeout=5)
        relay.close()
    return [sink.committed_at[key] - sent for key, sent in written_at.items()]


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--interval-ms", type=float, default=20.0)
    options = parser.parse_args()
    latencies_ms = [s * 1000 for s in run(options.cards, options.interval_ms / 1000)]
    print(
        f"{len(latencies_ms)} cards, one every {options.interval_ms:g} ms: "
        f"median {statistics.median(latencies_ms):.2f} ms, "
        f"p95 {percentile(latencies_ms, 0.95):.2f} ms, "
        f"p99 {percentile(latencies_ms, 0.99):.2f} ms, "
        f"max {max(latencies_ms):.2f} ms (target p99 < 50 ms)"
    )


if __name__ == "__main__":
    main()
