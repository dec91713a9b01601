"""The operator's commands: run_shoe stopped by a real SIGTERM or by an idle line, device_report,
device_enroll, and the demo floor's shoes."""

from __future__ import annotations

import json
import os
import signal
import threading
from collections.abc import Iterator
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from shoe_floor_harness import bind_shoe, fast_password_hashing
from shoe_link_harness import make_simulator, relayed_line, running, wait_until

from devices.demo import ensure_demo_shoes
from devices.models import Device, DeviceBinding
from tables.demo.floor import ensure_demo_tables
from tables.demo.users import ensure_demo_users
from tables.models import Table
from tables.services.floor import table_create, table_set_status

pytestmark = pytest.mark.django_db
__all__ = ["fast_password_hashing"]


@pytest.fixture
def own_signals() -> Iterator[None]:
    """run_shoe installs its SIGTERM/SIGINT handlers in this process: put pytest's back."""
    saved = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGINT)}
    yield
    for signum, handler in saved.items():
        signal.signal(signum, handler)


def command(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.fixture
def siete_table() -> Table:
    table = table_create(name="SYM-07", game="siete_y_medio", seat_count=6)
    # Open, so the cards drawn between rounds are recorded (as dead cards).
    table_set_status(table_id=table.pk, status=Table.Status.OPEN, actor=None)
    return table


@pytest.mark.usefixtures("own_signals")
def test_run_shoe_records_every_card_and_stops_cleanly_on_sigterm(
    tmp_path: Path, siete_table: Table, pit_boss_paula: User, pit_boss_pedro: User
) -> None:
    with relayed_line(tmp_path) as wiring:
        bind_shoe(
            siete_table, "SIM-SYM-07", requested_by=pit_boss_paula, approved_by=pit_boss_pedro,
            port_url=wiring.host_url,
        )  # fmt: skip
        simulator = make_simulator(wiring.device_url, serial="SIM-SYM-07", cards=5, seed=5)

        def terminate_when_done() -> None:
            wait_until(lambda: simulator.finished, 30)
            os.kill(os.getpid(), signal.SIGTERM)

        terminator = threading.Thread(target=terminate_when_done, daemon=True)
        with running(simulator):
            terminator.start()
            out = command("run_shoe", "--device", "SIM-SYM-07")
    assert simulator.finished
    assert "Stopped (stop requested)" in out
    report = json.loads(command("device_report", "--device", "SIM-SYM-07", "--json"))
    drawn = [entry for entry in simulator.dealer.log.entries if entry["card"] != "cut"]
    # No round is open: the rules record each card as a dead card (with an alert), never lose it.
    assert [card["card"] for card in report["cards"]] == [entry["card"] for entry in drawn]
    assert [(c["boot_id"], c["seq"]) for c in report["cards"]] == [
        (entry["boot_id"], entry["seq"]) for entry in drawn
    ]
    assert [card["draw_index"] for card in report["cards"]] == [e["draw_index"] for e in drawn]
    assert report["link_quality"]["committed"] >= 6  # SHOE_LOADED and the five cards
    assert report["device"]["model"] == "SIM-SHOE"  # learned from the first accepted HELLO
    text = command("device_report", "--device", "SIM-SYM-07")
    assert "bound to SYM-07 (approved; asked by paula, approved by pedro)" in text
    assert f"Accepted cards ({len(drawn)}):" in text


@pytest.mark.usefixtures("own_signals")
def test_run_shoe_ends_by_itself_on_an_idle_line(
    tmp_path: Path, siete_table: Table, pit_boss_paula: User, pit_boss_pedro: User
) -> None:
    bind_shoe(siete_table, "SIM-IDLE", requested_by=pit_boss_paula, approved_by=pit_boss_pedro)
    with relayed_line(tmp_path) as wiring:
        out = command(
            "run_shoe", "--device", "SIM-IDLE", "--port", wiring.host_url,
            "--exit-after-idle", "0.3",
        )  # fmt: skip
    assert "Stopped (idle line)" in out


def test_run_shoe_refuses_a_device_without_a_port(siete_table: Table) -> None:
    call_command("device_enroll", "--serial", "SHOE-2", "--table", "SYM-07", "--port", " ")
    with pytest.raises(CommandError, match="no port URL"):
        command("run_shoe", "--device", "SHOE-2")
    with pytest.raises(CommandError, match="No device"):
        command("run_shoe", "--device", "SHOE-404")


def test_device_enroll_leaves_the_binding_for_a_pit_boss(siete_table: Table) -> None:
    out = command(
        "device_enroll", "--serial", "SHOE-9001", "--table", "SYM-07",
        "--port", "rfc2217://10.0.0.9:4001", "--key", "k-9001",
    )  # fmt: skip
    assert "waits for a pit boss's approval" in out
    device = Device.objects.get(serial="SHOE-9001")
    assert (device.status, device.key, device.port_url) == (
        "pending", "k-9001", "rfc2217://10.0.0.9:4001"
    )  # fmt: skip
    binding = DeviceBinding.objects.get(device=device)
    assert (binding.approved_at, binding.requested_by) == (None, None)
    with pytest.raises(CommandError, match="already enrolled"):
        command("device_enroll", "--serial", "SHOE-9001", "--table", "SYM-07", "--port", "x")
    with pytest.raises(CommandError, match="no table"):
        command("device_enroll", "--serial", "SHOE-9002", "--table", "nowhere", "--port", "x")
    assert "bound to SYM-07 (pending" in command("device_report", "--device", "SHOE-9001")


def test_the_demo_floor_has_one_bound_simulated_shoe_per_table_and_seeding_is_idempotent() -> None:
    ensure_demo_users()
    tables = ensure_demo_tables()
    first = ensure_demo_shoes()
    again = ensure_demo_shoes()
    assert [d.pk for d in first] == [d.pk for d in again]
    assert sorted(d.serial for d in again) == sorted(f"SIM-{t.name}" for t in tables)
    for device in again:
        binding = DeviceBinding.objects.get(device=device)
        assert device.status == "active"
        assert binding.table.name == device.serial.removeprefix("SIM-")
        assert binding.approved_by is not None
        assert binding.approved_by != binding.requested_by
    assert len({d.port_url for d in again}) == len(again)
