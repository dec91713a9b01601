"""A floor with a real shoe: the reader daemon and a simulated shoe on two real lines.

The daemon (`run_shoe`) runs in a thread against the test database; the simulated shoe draws one
card each time the test asks, and the test waits until the shoe holds no un-ACKed event, i.e.
until the card is committed. Waiting reads only in-memory counters, so the test thread never
touches the database while the reader commits.
"""

from __future__ import annotations

import queue
import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from shoe_link_harness import fast_link_settings, relayed_line, wait_until

from devices.codec.cards import DeckType
from devices.django_sink import DjangoLinkSink
from devices.link.reader import ShoeLinkReader
from devices.models import Device, DeviceBinding
from devices.registry.enrollment import binding_approve, binding_request, device_enroll
from devices.shoe_daemon import ShoeRun, run_shoe
from devices.simulator.dealing import CardDealer, DrawLog
from devices.simulator.device import DeviceIdentity, DeviceTiming, ShoeDevice
from devices.simulator.runner import DrawPlan, SimulatorRunner, retransmit_after_for
from devices.simulator.shoe import SimulatedShoe
from tables.models import Table

# No background writes while the test thread uses the database (SQLite locks whole tables).
QUIET_LINK = fast_link_settings(counters_interval_s=3600.0)


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """The personas' passwords are never checked here; a slow hash only slows the tests."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def bind_shoe(
    table: Table,
    serial: str,
    *,
    requested_by: User | None,
    approved_by: User,
    key: str = "",
    port_url: str = "",
) -> tuple[Device, DeviceBinding]:
    device = device_enroll(serial=serial, port_url=port_url, key=key)
    binding = binding_request(device_id=device.pk, table_id=table.pk, by=requested_by)
    binding = binding_approve(binding_id=binding.pk, by=approved_by)
    device.refresh_from_db()
    return device, binding


def quiet_sink(serial: str) -> DjangoLinkSink:
    return DjangoLinkSink(serial, heartbeat_write_every=timedelta(hours=1))


@dataclass
class ShoeAtTable:
    """The two ends: the daemon's run and the simulated shoe, drawn one card at a time."""

    run: ShoeRun
    simulator: SimulatorRunner
    requests: queue.Queue[str | None]

    @property
    def reader(self) -> ShoeLinkReader:
        assert self.run.reader is not None
        return self.run.reader

    @property
    def log(self) -> list[dict[str, Any]]:
        return self.simulator.dealer.log.entries

    def settled(self, timeout_s: float = 10.0) -> bool:
        """Every event the shoe holds is ACKed, so committed."""
        device = self.simulator.dealer.device
        return bool(wait_until(lambda: device.all_acknowledged and self._linked(), timeout_s))

    def perform(self, line: str = "draw", timeout_s: float = 10.0) -> dict[str, Any]:
        """One shoe action ("draw", "misread"...); returns the draw's log entry once committed."""
        before = len(self.log)
        self.requests.put(line)
        assert wait_until(lambda: len(self.log) > before, timeout_s), f"the shoe did not {line}"
        assert self.settled(timeout_s), "the shoe's event was not acknowledged"
        return self.log[-1]

    def draw(self, count: int = 1) -> list[str]:
        return [self.perform()["card"] for _ in range(count)]

    def _linked(self) -> bool:
        return self.run.reader is not None and self.reader.counters.sessions_started >= 1


def make_interactive_simulator(
    url: str,
    serial: str,
    *,
    seed: int,
    deck: DeckType,
    key: bytes | None = None,
    requests: queue.Queue[str | None],
) -> SimulatorRunner:
    rng = random.Random(seed)
    timing = DeviceTiming(heartbeat_interval_s=0.2, retransmit_after_s=retransmit_after_for(url))
    device = ShoeDevice(
        DeviceIdentity(serial=serial, key=key), timing, random.Random(rng.getrandbits(64))
    )
    dealer = CardDealer(device, SimulatedShoe(deck, 1, rng), DrawLog())
    return SimulatorRunner(url, dealer, DrawPlan(requests=requests))


@contextmanager
def shoe_at_table(
    tmp_path: Path,
    serial: str,
    *,
    seed: int = 7,
    deck: DeckType = DeckType.SPANISH,
    key: bytes | None = None,
    shoe_serial: str | None = None,
) -> Iterator[ShoeAtTable]:
    """run_shoe for `serial` on one line, a simulated shoe (`shoe_serial`, default the same)."""
    requests: queue.Queue[str | None] = queue.Queue()
    with relayed_line(tmp_path) as wiring:
        run = ShoeRun(serial, wiring.host_url)
        simulator = make_interactive_simulator(
            wiring.device_url,
            shoe_serial or serial,
            seed=seed,
            deck=deck,
            key=key,
            requests=requests,
        )

        def serve() -> None:
            run_shoe(serial, wiring.host_url, settings=QUIET_LINK, run=run, sink_factory=quiet_sink)

        threads = [
            threading.Thread(target=serve, daemon=True, name="run-shoe"),
            threading.Thread(target=simulator.run, daemon=True, name="simulated-shoe"),
        ]
        for thread in threads:
            thread.start()
        try:
            yield ShoeAtTable(run, simulator, requests)
        finally:
            simulator.stop.set()
            run.stop.set()
            for thread in threads:
                thread.join(timeout=10)
            assert not threads[0].is_alive(), "run_shoe did not stop"
