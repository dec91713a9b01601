"""Latency from the simulated shoe's write of a CARD_DRAWN frame to its commit in the database.

The whole product path: real pyserial on two pseudo-terminals joined by the fault-free relay,
run_shoe's reader, the database sink, the game service (table lock, replay cache, the Siete y
Medio engine, the hash-chained log, projections) and the COMMIT, before the ACK. Siete y Medio
rounds are played as a dealer would: six wagers, the deal, every box stands, the bank draws;
the shoe draws one card when the round needs one.

Without DATABASE_URL it uses a scratch SQLite file; with DATABASE_URL=postgres://... use a
scratch database (the benchmark writes to it).

Run: .venv/bin/python bench/shoe_latency_db.py [--cards N]
"""

from __future__ import annotations

import argparse
import os
import queue
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
SCRATCH = tempfile.mkdtemp(prefix="shoe-latency-db-")
os.environ.setdefault("DATABASE_URL", f"sqlite:///{SCRATCH}/bench.sqlite3")

from bench._django import setup  # noqa: E402

setup()


def _queue_sqlite_writers() -> None:
    """As the embedded default does: writers wait for SQLite's lock instead of failing."""
    from django.db import connections

    if connections.settings["default"]["ENGINE"].endswith("sqlite3"):
        options = connections.settings["default"].setdefault("OPTIONS", {})
        options.update(timeout=20, transaction_mode="IMMEDIATE")
        connections.close_all()


_queue_sqlite_writers()

from django.contrib.auth.models import Group, User  # noqa: E402
from django.db import connection  # noqa: E402

from devices.codec.cards import DeckType  # noqa: E402
from devices.codec.messages import CardDrawn  # noqa: E402
from devices.django_sink import DjangoLinkSink  # noqa: E402
from devices.link.settings import LinkSettings  # noqa: E402
from devices.registry.enrollment import (  # noqa: E402
    binding_approve,
    binding_request,
    device_enroll,
)
from devices.shoe_daemon import ShoeRun, run_shoe  # noqa: E402
from devices.simulator.dealing import CardDealer, DrawLog  # noqa: E402
from devices.simulator.device import DeviceIdentity, DeviceTiming, ShoeDevice  # noqa: E402
from devices.simulator.lines import PtyLine  # noqa: E402
from devices.simulator.relay import Relay  # noqa: E402
from devices.simulator.runner import DrawPlan, SimulatorRunner  # noqa: E402
from devices.simulator.shoe import SimulatedShoe  # noqa: E402
from tables import roles  # noqa: E402
from tables.engine import siete  # noqa: E402
from tables.models import Table  # noqa: E402
from tables.services.commands import table_command  # noqa: E402
from tables.services.engine_state import current_state  # noqa: E402
from tables.services.floor import table_create, table_set_status  # noqa: E402

SERIAL = "BENCH-SHOE"


class TimedSink(DjangoLinkSink):
    committed_at: dict[tuple[int, int], float] = {}

    def commit(self, boot_id: int, seq: int, message: Any) -> str:
        verdict = super().commit(boot_id, seq, message)
        self.committed_at[(boot_id, seq)] = time.perf_counter()
        return verdict


def prepare_floor() -> Table:
    name = f"BENCH-{random.SystemRandom().getrandbits(24):06x}"
    # Eight packs, as in the simulated shoe, so a rank and suit may come up to eight times.
    table = table_create(name=name, game="siete_y_medio", seat_count=6, settings={"decks": 8})
    asker, approver = (
        User.objects.create(username=f"{name}-{who}") for who in ("asker", "approver")
    )
    approver.groups.add(Group.objects.get(name=roles.PIT_BOSS))
    table_set_status(table_id=table.pk, status=Table.Status.OPEN, actor=approver)
    device = device_enroll(serial=SERIAL + name[-6:], port_url="")
    binding = binding_request(device_id=device.pk, table_id=table.pk, by=asker)
    binding_approve(binding_id=binding.pk, by=approver)
    table.refresh_from_db()
    return table


class Dealer:
    """Plays rounds on the table; asks the shoe for a card when the round needs one."""

    def __init__(self, table: Table, simulator: SimulatorRunner, requests: Any) -> None:
        self.table = table
        self.simulator = simulator
        self.requests = requests

    def tablet(self, command: Any) -> dict[str, Any]:
        outcome = table_command(
            table_id=self.table.pk, command=command, actor=None, source="tablet"
        )
        return siete.live_view(outcome.state)

    def draw(self) -> dict[str, Any]:
        """One card out of the shoe (past the cut card, which is a draw but not a card)."""
        device, log = self.simulator.dealer.device, self.simulator.dealer.log.entries
        while True:
            before = len(log)
            self.requests.put("draw")
            while len(log) == before or not device.all_acknowledged:
                time.sleep(0.001)
            if log[-1]["card"] != "cut":
                break
        time.sleep(0.02)  # a dealer's hand is slower than the line: no queueing in the figures
        self.table.refresh_from_db()
        return siete.live_view(current_state(self.table))

    def play_round(self) -> None:
        self.tablet(siete.StartRound())
        for box in range(1, 7):
            view = self.tablet(siete.PlaceWager(box=box, amount=10))
        for _ in range(7):
            view = self.draw()
        while view["phase"] in ("players", "bank"):
            if view["phase"] == "players":
                view = self.tablet(siete.Stand(box=view["turn"]["box"]))
            elif any(card.get("face_down") for card in view["bank"]["cards"]):
                view = self.tablet(siete.RevealBank())
            else:
                view = self.draw()
        for result in view["results"] or []:
            self.tablet(siete.RecordPayout(box=result["box"], amount=result["net"]))


def run(cards: int) -> list[float]:
    table = prepare_floor()
    serial = SERIAL + table.name[-6:]
    written_at: dict[tuple[int, int], float] = {}
    requests: queue.Queue[str | None] = queue.Queue()
    with tempfile.TemporaryDirectory() as tmp:
        shoe_line, reader_line = PtyLine(Path(tmp) / "shoe"), PtyLine(Path(tmp) / "reader")
        relay = Relay(shoe_line, reader_line)
        relay.start()
        device = ShoeDevice(DeviceIdentity(serial), DeviceTiming(), random.Random(1))

        def note_write(event: Any) -> None:
            if isinstance(event.message, CardDrawn):
                written_at[(event.boot_id, event.seq)] = time.perf_counter()

        device.on_first_transmission = note_write
        shoe = SimulatedShoe(DeckType.SPANISH, 8, random.Random(2))
        simulator = SimulatorRunner(
            shoe_line.url, CardDealer(device, shoe, DrawLog()), DrawPlan(requests=requests)
        )
        shoe_run = ShoeRun(serial, reader_line.url)

        def serve() -> None:
            run_shoe(serial, reader_line.url, settings=LinkSettings(), run=shoe_run,
                     sink_factory=TimedSink)  # fmt: skip

        threads = [threading.Thread(target=t, daemon=True) for t in (serve, simulator.run)]
        for thread in threads:
            thread.start()
        while not device.all_acknowledged or shoe_run.counters.sessions_started == 0:
            time.sleep(0.01)
        dealer = Dealer(table, simulator, requests)
        while len(written_at) < cards:
            dealer.play_round()
        requests.put(None)
        shoe_run.stop.set()
        for thread in threads:
            thread.join(timeout=10)
        relay.close()
    committed = TimedSink.committed_at
    return [committed[key] - sent for key, sent in written_at.items() if key in committed]


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cards", type=int, default=300)
    options = parser.parse_args()
    latencies_ms = [s * 1000 for s in run(options.cards)]
    print(
        f"{connection.vendor}: {len(latencies_ms)} cards through run_shoe and the Siete y Medio "
        f"service: median {statistics.median(latencies_ms):.2f} ms, "
        f"p95 {percentile(latencies_ms, 0.95):.2f} ms, "
        f"p99 {percentile(latencies_ms, 0.99):.2f} ms, "
        f"max {max(latencies_ms):.2f} ms (target p99 < 50 ms)"
    )


if __name__ == "__main__":
    main()
