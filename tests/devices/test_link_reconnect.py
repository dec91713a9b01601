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
from devices.simulator.relay import LineBreaks


def test_the_reader_reconnects_to_a_serial_server_after_each_break(tmp_path: Path) -> None:
    sink = MemorySink()
    breaks = LineBreaks(every_s=0.7, down_s=0.3)
    with relayed_line(tmp_path, host_over_tcp=True, breaks=breaks) as wiring:
        simulator = make_simulator(wiring.device_url, cards=120, draw_interval_s=0.02)
        reader = ShoeLinkReader(wiring.host_url, sink, fast_link_settings())
        with running(reader, simulator):
            assert wait_until(lambda: simulator.finished, 15)
        line_breaks = wiring.relay.counters.breaks
    assert line_breaks >= 2
    assert reader.counters.reconnects >= line_breaks - 1
    assert sink.recorded_draws(DeckType.SPANISH) == logged_draws(simulator.dealer.log)


def test_a_cut_pseudo_terminal_is_reopened_by_path(tmp_path: Path) -> None:
    sink = MemorySink()
    breaks = LineBreaks(every_s=0.5, down_s=0.2)
    with relayed_line(tmp_path, breaks=breaks) as wiring:
        simulator = make_simulator(wiring.device_url, cards=80, draw_interval_s=0.02)
        reader = ShoeLinkReader(wiring.host_url, sink, fast_link_settings())
        with running(reader, simulator):
            assert wait_until(lambda: simulator.finished, 15)
    assert reader.counters.port_errors >= 1
    assert reader.counters.reconnects >= 1
    assert sink.recorded_draws(DeckType.SPANISH) == logged_draws(simulator.dealer.log)


def test_a_restarted_reader_resumes_from_the_store_without_duplicates(tmp_path: Path) -> None:
    sink = MemorySink()
    with relayed_line(tmp_path) as wiring:
        simulator = make_simulator(wiring.device_url, cards=60, draw_interval_s=0.02)
        first = ShoeLinkReader(wiring.host_url, sink, fast_link_settings())
        with running(simulator):
            with running(first):
                assert wait_until(lambda: len(sink.commits) >= 15, 5)
            assert not simulator.finished
            second = ShoeLinkReader(wiring.host_url, sink, fast_link_settings())
            with running(second):
                assert wait_until(lambda: simulator.finished, 10)
    assert second.counters.committed > 0
    assert sink.recorded_draws(DeckType.SPANISH) == logged_draws(simulator.dealer.log)


def test_only_one_reader_can_hold_a_local_port(tmp_path: Path) -> None:
    with relayed_line(tmp_path) as wiring:
        first = ShoeLinkReader(wiring.host_url, MemorySink(), fast_link_settings())
        second = ShoeLinkReader(wiring.host_url, MemorySink(), fast_link_settings())
        with running(first):
            assert wait_until(lambda: first.counters.port_openings == 1, 5)
            with running(second):
                assert wait_until(lambda: second.counters.open_failures >= 2, 5)
            assert second.counters.port_openings == 0
