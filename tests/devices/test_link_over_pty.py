import random
from pathlib import Path

from shoe_link_harness import (
    MemorySink,
    fast_link_settings,
    logged_draws,
    make_simulator,
    relayed_line,
    running,
    wait_until,
)

from devices.codec.cards import DeckType
from devices.link.reader import ShoeLinkReader
from devices.simulator.faults import FaultPlan

KEY = b"shoe-0001-secret"


def test_every_card_drawn_is_committed_once_and_in_order(tmp_path: Path) -> None:
    sink = MemorySink()
    with relayed_line(tmp_path) as wiring:
        simulator = make_simulator(wiring.device_url, cards=40)
        reader = ShoeLinkReader(wiring.host_url, sink, fast_link_settings())
        with running(reader, simulator):
            assert wait_until(lambda: simulator.finished, 10)
    assert sink.recorded_draws(DeckType.SPANISH) == logged_draws(simulator.dealer.log)
    assert len([d for d in logged_draws(simulator.dealer.log) if d["card"] != "cut"]) == 40


def test_garbage_on_the_line_before_the_first_frame_is_discarded_and_counted(
    tmp_path: Path,
) -> None:
    sink = MemorySink()
    with relayed_line(tmp_path) as wiring:
        reader = ShoeLinkReader(wiring.host_url, sink, fast_link_settings())
        simulator = make_simulator(wiring.device_url, cards=10)
        with running(reader):
            assert wait_until(lambda: reader.counters.port_openings == 1, 5)
            noise = random.Random(3).randbytes(3000)
            wiring.relay.host_line.push(noise)
            assert wait_until(lambda: reader.counters.bytes_received >= len(noise), 5)
            with running(simulator):
                assert wait_until(lambda: simulator.finished, 10)
    assert sum(reader.counters.rejections.values()) > 0
    assert sink.recorded_draws(DeckType.SPANISH) == logged_draws(simulator.dealer.log)


def test_a_keyed_shoe_answers_the_challenge_and_its_cards_are_committed(tmp_path: Path) -> None:
    sink = MemorySink(keys={"SHOE-0001": KEY})
    with relayed_line(tmp_path) as wiring:
        simulator = make_simulator(wiring.device_url, cards=15, key=KEY)
        reader = ShoeLinkReader(wiring.host_url, sink, fast_link_settings())
        with running(reader, simulator):
            assert wait_until(lambda: simulator.finished, 10)
    assert reader.counters.auth_failures == 0
    assert reader.counters.sessions_started >= 1
    assert sink.recorded_draws(DeckType.SPANISH) == logged_draws(simulator.dealer.log)


def test_a_shoe_with_the_wrong_key_is_refused_and_nothing_is_recorded(tmp_path: Path) -> None:
    sink = MemorySink(keys={"SHOE-0001": KEY})
    with relayed_line(tmp_path) as wiring:
        simulator = make_simulator(wiring.device_url, cards=15, key=b"an impostor key")
        reader = ShoeLinkReader(wiring.host_url, sink, fast_link_settings())
        with running(reader, simulator):
            assert wait_until(lambda: len(sink.refusals) >= 2, 5)
    assert sink.commits == []
    assert reader.counters.auth_failures >= 2
    assert "HELLO is not signed with the registered key" in sink.refusals
    assert not simulator.finished


def test_an_unkeyed_shoe_is_refused_when_the_registry_holds_a_key(tmp_path: Path) -> None:
    sink = MemorySink(keys={"SHOE-0001": KEY})
    with relayed_line(tmp_path) as wiring:
        simulator = make_simulator(wiring.device_url, cards=5)
        reader = ShoeLinkReader(wiring.host_url, sink, fast_link_settings())
        with running(reader, simulator):
            assert wait_until(lambda: len(sink.refusals) >= 1, 5)
    assert sink.commits == []


def test_an_unknown_shoe_the_registry_refuses_records_nothing(tmp_path: Path) -> None:
    sink = MemorySink(accept_unknown=False)
    with relayed_line(tmp_path) as wiring:
        simulator = make_simulator(wiring.device_url, cards=5)
        reader = ShoeLinkReader(wiring.host_url, sink, fast_link_settings())
        with running(reader, simulator):
            assert wait_until(lambda: len(sink.refusals) >= 1, 5)
    assert sink.refusals[0] == "unknown device"
    assert sink.commits == []


def test_two_hundred_cards_through_a_faulty_shoe_are_each_recorded_once_in_order(
    tmp_path: Path,
) -> None:
    faults = FaultPlan(
        corrupt=0.03, duplicate=0.03, drop=0.03, garbage=0.03, reboot=0.01, misread=0.03
    )
    sink = MemorySink(keys={"SHOE-0042": KEY})
    with relayed_line(tmp_path) as wiring:
        simulator = make_simulator(
            wiring.device_url,
            serial="SHOE-0042",
            cards=200,
            seed=42,
            key=KEY,
            faults=faults,
            deck=DeckType.FRENCH,
            decks=3,
        )
        reader = ShoeLinkReader(wiring.host_url, sink, fast_link_settings())
        with running(reader, simulator):
            assert wait_until(lambda: simulator.finished, 18)
    device = simulator.dealer.device
    assert sink.recorded_draws(DeckType.FRENCH) == logged_draws(simulator.dealer.log)
    assert device.boots >= 2, "the seed is chosen so the shoe reboots at least once"
    assert min(device.output.injected.values()) > 0
    assert sum(reader.counters.rejections.values()) > 0
    assert reader.counters.duplicates > 0


def test_a_shoe_that_stops_its_heartbeats_goes_offline_after_three_intervals(
    tmp_path: Path,
) -> None:
    sink = MemorySink()
    settings = fast_link_settings(heartbeat_interval_s=0.1)
    with relayed_line(tmp_path) as wiring:
        simulator = make_simulator(wiring.device_url, cards=None, heartbeat_interval_s=0.1)
        reader = ShoeLinkReader(wiring.host_url, sink, settings)
        with running(reader, simulator):
            assert wait_until(lambda: [t for t, _ in sink.transitions] == ["online"], 5)
            assert wait_until(lambda: sink.heartbeats >= 5, 5)
            assert [t for t, _ in sink.transitions] == ["online"]
            simulator.dealer.device.heartbeats_enabled = False
            assert wait_until(lambda: len(sink.transitions) == 2, 3)
            last_heartbeat_at = sink.last_heartbeat_at
            simulator.dealer.device.heartbeats_enabled = True
            assert wait_until(lambda: len(sink.transitions) == 3, 3)
    offline_after = sink.transitions[1][1] - last_heartbeat_at
    assert 0.3 <= offline_after < 0.6
    assert [t for t, _ in sink.transitions] == ["online", "offline", "online"]
    assert reader.counters.offline_transitions == 1
