"""run_shoe through a bad line and a silent shoe, into the real database: faults, unplug and
replug, a restart of the daemon, and three missed heartbeats. Every card drawn is recorded
exactly once, in order; nothing that was not drawn is recorded."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError
from shoe_floor_harness import (
    QUIET_LINK,
    bind_shoe,
    fast_password_hashing,
    make_interactive_simulator,
)
from shoe_link_harness import make_simulator, relayed_line, wait_until

from devices.codec.cards import DeckType
from devices.django_sink import DjangoLinkSink
from devices.models import Device, DeviceEvent, DeviceIncident, LinkQuality
from devices.shoe_daemon import ShoeRun, run_shoe
from devices.simulator.faults import FaultPlan
from devices.simulator.relay import LineBreaks
from devices.simulator.runner import SimulatorRunner
from tables.models import Alert, Table
from tables.services.floor import table_create, table_set_status

pytestmark = pytest.mark.django_db
__all__ = ["fast_password_hashing"]
SERIAL = "SIM-SYM-31"


@pytest.fixture
def table(pit_boss_paula: User, pit_boss_pedro: User) -> Table:
    table = table_create(name="SYM-31", game="siete_y_medio", seat_count=6)
    table_set_status(table_id=table.pk, status=Table.Status.OPEN, actor=pit_boss_paula)
    bind_shoe(table, SERIAL, requested_by=pit_boss_paula, approved_by=pit_boss_pedro)
    return table


def serve(url: str, until: Callable[[ShoeRun], bool], timeout_s: float = 20) -> ShoeRun:
    """run_shoe in this thread (the only one using the database) until `until` holds."""
    run = ShoeRun(SERIAL, url)

    def watch() -> None:
        wait_until(lambda: until(run), timeout_s)
        run.stop.set()

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    run_shoe(SERIAL, url, settings=QUIET_LINK, run=run)
    watcher.join(timeout=5)
    return run


def drawn_in_order(simulator: SimulatorRunner) -> list[tuple[int, int, str]]:
    entries = simulator.dealer.log.entries
    return [(e["boot_id"], e["seq"], e["card"]) for e in entries if e["card"] not in ("cut",)]


def recorded_in_order() -> list[tuple[int, int, str]]:
    events = DeviceEvent.objects.filter(message_type="CARD_DRAWN").order_by("id")
    return [(e.boot_id, e.seq, e.card) for e in events]


def test_every_card_is_recorded_once_through_faults_and_line_breaks(
    tmp_path: Path, table: Table
) -> None:
    faults = FaultPlan(corrupt=0.03, duplicate=0.05, drop=0.03, garbage=0.03)
    with relayed_line(tmp_path, breaks=LineBreaks(every_s=0.6, down_s=0.2)) as wiring:
        simulator = make_simulator(
            wiring.device_url, serial=SERIAL, cards=60, seed=3, faults=faults, decks=2,
            draw_interval_s=0.03,
        )  # fmt: skip
        shoe = threading.Thread(target=simulator.run, daemon=True)
        shoe.start()
        run = serve(wiring.host_url, lambda run: simulator.finished)
        simulator.stop.set()
        shoe.join(timeout=5)
    assert simulator.finished
    assert recorded_in_order() == drawn_in_order(simulator)
    assert run.counters.port_errors >= 1  # the line was cut under the reader...
    assert run.counters.reconnects >= 1  # ...and the port reopened when it came back
    quality = LinkQuality.objects.get(device__serial=SERIAL)
    assert quality.reconnects == run.counters.reconnects
    assert quality.committed == DeviceEvent.objects.count()
    assert sum(quality.rejections.values()) == sum(run.counters.rejections.values())


def test_a_restarted_daemon_resumes_from_the_database_without_applying_twice(
    tmp_path: Path, table: Table
) -> None:
    with relayed_line(tmp_path) as wiring:
        simulator = make_simulator(
            wiring.device_url, serial=SERIAL, cards=24, seed=8, decks=1, draw_interval_s=0.03
        )
        shoe = threading.Thread(target=simulator.run, daemon=True)
        shoe.start()
        first = serve(wiring.host_url, lambda run: run.counters.committed >= 8)
        assert not simulator.finished
        second = serve(wiring.host_url, lambda run: simulator.finished)
        simulator.stop.set()
        shoe.join(timeout=5)
    assert first.counters.committed >= 8
    assert second.counters.committed > 0
    assert recorded_in_order() == drawn_in_order(simulator)
    card_rows = table.events.filter(type="card.dead").count()  # no round open: dead cards
    assert card_rows == len(drawn_in_order(simulator))
    quality = LinkQuality.objects.get(device__serial=SERIAL)
    assert quality.committed == first.counters.committed + second.counters.committed


def test_three_missed_heartbeats_put_the_shoe_offline_and_alert_the_pit(
    tmp_path: Path, table: Table
) -> None:
    requests: queue.Queue[str | None] = queue.Queue()  # an idle shoe: heartbeats only
    with relayed_line(tmp_path) as wiring:
        simulator = make_interactive_simulator(
            wiring.device_url, SERIAL, seed=2, deck=DeckType.SPANISH, requests=requests
        )
        device = simulator.dealer.device
        steps = ["linked"]

        def silent_then_back(run: ShoeRun) -> bool:
            reader = run.reader
            if reader is None or not device.all_acknowledged:
                return False
            if steps[-1] == "linked" and reader.liveness.online:
                device.heartbeats_enabled = False
                steps.append("silent")
            elif steps[-1] == "silent" and run.counters.offline_transitions:
                device.heartbeats_enabled = True
                steps.append("beating")
            elif steps[-1] == "beating" and reader.liveness.online:
                steps.append("online")
            return steps[-1] == "online"

        shoe = threading.Thread(target=simulator.run, daemon=True)
        shoe.start()
        run = serve(wiring.host_url, silent_then_back)
        simulator.stop.set()
        shoe.join(timeout=5)
    assert steps == ["linked", "silent", "beating", "online"]
    assert run.counters.offline_transitions == 1
    alert = Alert.objects.get(table=table, code="shoe_offline")
    assert alert.event.type == "device.offline"
    kinds = list(DeviceIncident.objects.order_by("id").values_list("kind", flat=True))
    assert kinds[-2:] == ["offline", "online"]
    assert Device.objects.get(serial=SERIAL).online


class DatabaseOutageOnce(DjangoLinkSink):
    """The database fails the first commit this process attempts (a restart, a failover)."""

    failed = False

    def commit(self, boot_id: int, seq: int, message: Any) -> str:
        if not DatabaseOutageOnce.failed:
            DatabaseOutageOnce.failed = True
            raise OperationalError("server closed the connection unexpectedly")
        return super().commit(boot_id, seq, message)


def test_a_database_outage_restarts_the_reader_and_loses_no_card(
    tmp_path: Path, table: Table
) -> None:
    with relayed_line(tmp_path) as wiring:
        simulator = make_simulator(wiring.device_url, serial=SERIAL, cards=6, seed=4, decks=1)
        shoe = threading.Thread(target=simulator.run, daemon=True)
        shoe.start()
        run = ShoeRun(SERIAL, wiring.host_url)

        def watch() -> None:
            wait_until(lambda: simulator.finished, 20)
            run.stop.set()

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        run_shoe(SERIAL, wiring.host_url, settings=QUIET_LINK, run=run,
                 sink_factory=DatabaseOutageOnce)  # fmt: skip
        simulator.stop.set()
        shoe.join(timeout=5)
    assert simulator.finished
    assert (run.database_failures, run.readers) == (1, 2)
    assert recorded_in_order() == drawn_in_order(simulator)
