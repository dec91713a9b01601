"""Shoe → fault-injecting relay → reader: the whole delivery promise under a hostile line."""

from pathlib import Path

import pytest
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
from devices.simulator.relay import LineBreaks, LineFaults

KEY = b"soak-shoe-key"
LINE_FAULTS = LineFaults(bit_flip=3e-4, drop=2e-4, duplicate=2e-4, garbage_burst=0.02)
SHOE_FAULTS = FaultPlan(corrupt=0.01, duplicate=0.01, drop=0.01, garbage=0.01, reboot=0.004)
# The short run draws fewer cards, so its shoe reboots more often to be sure to reboot at all.
SHORT_SHOE_FAULTS = FaultPlan(corrupt=0.01, duplicate=0.01, drop=0.01, garbage=0.01, reboot=0.03)


def soak(
    tmp_path: Path,
    cards: int,
    seed: int,
    shoe_faults: FaultPlan,
    breaks: LineBreaks,
    timeout_s: float,
) -> None:
    sink = MemorySink(keys={"SOAK-1": KEY})
    with relayed_line(tmp_path, faults=LINE_FAULTS, breaks=breaks, seed=seed) as wiring:
        simulator = make_simulator(
            wiring.device_url,
            serial="SOAK-1",
            cards=cards,
            seed=seed,
            key=KEY,
            faults=shoe_faults,
            deck=DeckType.SPANISH,
            decks=6,
            draw_interval_s=0.015,
            log_path=tmp_path / "draws.jsonl",
        )
        reader = ShoeLinkReader(wiring.host_url, sink, fast_link_settings())
        with running(reader, simulator):
            assert wait_until(lambda: simulator.finished, timeout_s)
        relay = wiring.relay.counters
    device = simulator.dealer.device

    # Every drawn card recorded exactly once and in draw order.
    assert sink.recorded_draws(DeckType.SPANISH) == logged_draws(simulator.dealer.log)
    # No corrupted frame accepted: every committed event is byte-for-byte one the shoe held.
    assert all(device.history[(b, s)] == message for b, s, message in sink.commits)
    assert len(sink.commits) == len(device.history)
    # The line was hostile and the link noticed.
    assert relay.bits_flipped > 0
    assert relay.bytes_dropped + relay.bytes_duplicated + relay.garbage_bursts > 0
    assert sum(reader.counters.rejections.values()) > 0
    assert relay.breaks >= 2
    assert reader.counters.reconnects >= relay.breaks - 1
    assert device.boots >= 2


def test_a_short_soak_through_the_faulty_relay_loses_and_repeats_nothing(tmp_path: Path) -> None:
    soak(
        tmp_path,
        cards=250,
        seed=7,
        shoe_faults=SHORT_SHOE_FAULTS,
        breaks=LineBreaks(1.0, 0.3),
        timeout_s=25,
    )


@pytest.mark.slow
def test_two_thousand_cards_through_the_faulty_relay_are_each_recorded_once_in_order(
    tmp_path: Path,
) -> None:
    soak(
        tmp_path,
        cards=2000,
        seed=2026,
        shoe_faults=SHOE_FAULTS,
        breaks=LineBreaks(3.0, 0.5),
        timeout_s=170,
    )
