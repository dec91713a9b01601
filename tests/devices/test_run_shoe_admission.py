"""Binding and authentication over a real line: run_shoe in this thread, a simulated shoe in
another. A wrong key, an unknown serial or a retired shoe is quarantined and alerted, and
nothing it sends is applied; a keyed shoe with its registered key feeds its table."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from shoe_floor_harness import QUIET_LINK, bind_shoe, fast_password_hashing
from shoe_link_harness import make_simulator, relayed_line, wait_until

from devices.models import Device, DeviceEvent, DeviceIncident
from devices.registry.enrollment import device_retire
from devices.shoe_daemon import ShoeRun, run_shoe
from devices.simulator.runner import SimulatorRunner
from tables.models import Alert, Table, TableEvent
from tables.services.floor import table_create, table_set_status

pytestmark = pytest.mark.django_db
__all__ = ["fast_password_hashing"]
KEY = "the-registered-key"


@pytest.fixture
def table(pit_boss_paula: User, pit_boss_pedro: User) -> Table:
    table = table_create(name="SYM-11", game="siete_y_medio", seat_count=6)
    table_set_status(table_id=table.pk, status=Table.Status.OPEN, actor=pit_boss_paula)
    bind_shoe(table, "SIM-SYM-11", requested_by=pit_boss_paula, approved_by=pit_boss_pedro, key=KEY)
    return table


def serve_until(
    tmp_path: Path,
    make_shoe: Callable[[str], SimulatorRunner],
    done: Callable[[ShoeRun, SimulatorRunner], bool],
) -> tuple[ShoeRun, SimulatorRunner]:
    """run_shoe here; the shoe in a thread; stop once `done` (read from memory) holds."""
    with relayed_line(tmp_path) as wiring:
        run = ShoeRun("SIM-SYM-11", wiring.host_url)
        shoe = make_shoe(wiring.device_url)

        def watch() -> None:
            try:
                wait_until(lambda: done(run, shoe), 15)
            finally:
                run.stop.set()
                shoe.stop.set()

        threads = [threading.Thread(target=t, daemon=True) for t in (shoe.run, watch)]
        for thread in threads:
            thread.start()
        run_shoe("SIM-SYM-11", wiring.host_url, settings=QUIET_LINK, run=run)
        for thread in threads:
            thread.join(timeout=10)
    return run, shoe


def card_rows(table: Table) -> int:
    return TableEvent.objects.filter(table=table, type__startswith="card.").count()


def test_a_shoe_with_its_registered_key_feeds_its_table(tmp_path: Path, table: Table) -> None:
    run, shoe = serve_until(
        tmp_path,
        lambda url: make_simulator(url, serial="SIM-SYM-11", cards=3, key=KEY.encode()),
        lambda run, shoe: shoe.finished,
    )
    assert shoe.finished
    assert run.counters.auth_failures == 0
    # No round is open, so the rules record each drawn card as dead: applied, not lost.
    assert card_rows(table) == 3
    assert set(DeviceEvent.objects.values_list("verdict", flat=True)) == {"accepted"}


def test_a_shoe_with_the_wrong_key_is_quarantined_alerted_and_nothing_is_applied(
    tmp_path: Path, table: Table
) -> None:
    run, shoe = serve_until(
        tmp_path,
        lambda url: make_simulator(url, serial="SIM-SYM-11", cards=3, key=b"an impostor"),
        lambda run, shoe: run.counters.sessions_refused >= 2,
    )
    assert not shoe.finished
    assert run.counters.auth_failures >= 2
    assert Device.objects.get(serial="SIM-SYM-11").status == Device.Status.QUARANTINED
    assert Alert.objects.filter(table=table, code="shoe_session_refused").count() == 1
    assert not DeviceEvent.objects.exists()
    assert card_rows(table) == 0


def test_an_unknown_serial_on_the_line_is_stored_quarantined_and_alerted(
    tmp_path: Path, table: Table
) -> None:
    _run, shoe = serve_until(
        tmp_path,
        lambda url: make_simulator(url, serial="SIM-NOBODY", cards=3),
        lambda run, shoe: shoe.finished,
    )
    assert shoe.finished  # every event was committed (quarantined) before its ACK
    stranger = Device.objects.get(serial="SIM-NOBODY")
    assert stranger.status == Device.Status.QUARANTINED
    verdicts = set(DeviceEvent.objects.filter(device=stranger).values_list("verdict", flat=True))
    assert verdicts == {"quarantined"}
    assert card_rows(table) == 0
    alert = Alert.objects.get(table=table, code="shoe_quarantined")
    assert alert.details["serial"] == "SIM-NOBODY"


def test_a_retired_shoe_is_quarantined_and_nothing_it_draws_is_applied(
    tmp_path: Path, table: Table, pit_boss_pedro: User
) -> None:
    shoe_device = Device.objects.get(serial="SIM-SYM-11")
    device_retire(device_id=shoe_device.pk, by=pit_boss_pedro, reason="end of life")
    _run, shoe = serve_until(
        tmp_path,
        lambda url: make_simulator(url, serial="SIM-SYM-11", cards=3, key=KEY.encode()),
        lambda run, shoe: shoe.finished,
    )
    assert shoe.finished
    assert set(DeviceEvent.objects.values_list("verdict", flat=True)) == {"quarantined"}
    assert card_rows(table) == 0
    assert DeviceIncident.objects.filter(device=shoe_device, kind="quarantined").count() == 1
