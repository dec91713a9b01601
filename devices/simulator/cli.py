"""Command line of the shoe simulator, shared by `manage.py shoe_simulator` and `python -m`."""

import argparse
import queue
import random
import signal
import sys
import threading
from pathlib import Path
from typing import IO, Any

from devices.codec.cards import DeckType
from devices.simulator.dealing import CardDealer, DrawLog
from devices.simulator.device import DeviceIdentity, DeviceTiming, ShoeDevice
from devices.simulator.faults import FaultPlan
from devices.simulator.runner import DrawPlan, SimulatorRunner, retransmit_after_for
from devices.simulator.shoe import SimulatedShoe


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", required=True, help="pyserial URL of the line")
    parser.add_argument("--serial", required=True, help="the shoe's serial number")
    parser.add_argument("--deck", choices=["spanish", "french"], default="spanish")
    parser.add_argument("--decks", type=int, default=1, help="packs in the shoe")
    parser.add_argument("--seed", type=int, default=None, help="seed of the shuffle and faults")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--cards", type=int, help="draw N cards, wait for every ACK, exit")
    mode.add_argument(
        "--interactive",
        action="store_true",
        help="per stdin line: draw (empty line), misread, abort, lid open, lid closed, reboot",
    )
    parser.add_argument("--key", default=None, help="device key for tags and challenge")
    parser.add_argument(
        "--faults",
        default="",
        help="probabilities of corrupt, duplicate, drop, garbage (per frame), reboot, misread "
        "(per draw), e.g. corrupt=0.01,drop=0.02,reboot=0.001",
    )
    parser.add_argument("--log", type=Path, default=None, help="JSON-lines log of every draw")
    parser.add_argument("--draw-interval-ms", type=int, default=250)
    parser.add_argument("--heartbeat-ms", type=int, default=1000)


def build_runner(options: dict[str, Any], stdin: IO[str] | None = None) -> SimulatorRunner:
    seed = options["seed"] if options["seed"] is not None else random.SystemRandom().getrandbits(64)
    rng = random.Random(seed)
    key = options["key"].encode() if options["key"] else None
    timing = DeviceTiming(
        heartbeat_interval_s=options["heartbeat_ms"] / 1000,
        retransmit_after_s=retransmit_after_for(options["port"]),
    )
    device = ShoeDevice(
        DeviceIdentity(serial=options["serial"], key=key),
        timing,
        random.Random(rng.getrandbits(64)),
        FaultPlan.parse(options["faults"]),
    )
    shoe = SimulatedShoe(DeckType[options["deck"].upper()], options["decks"], rng)
    dealer = CardDealer(device, shoe, DrawLog(options["log"]))
    plan = DrawPlan(cards=options["cards"], draw_interval_s=options["draw_interval_ms"] / 1000)
    if options["interactive"]:
        plan = DrawPlan(requests=_lines_of(stdin or sys.stdin))
    return SimulatorRunner(options["port"], dealer, plan)


def _lines_of(stream: IO[str]) -> "queue.Queue[str | None]":
    requests: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        for line in stream:
            requests.put(line)
        requests.put(None)

    threading.Thread(target=pump, daemon=True, name="shoe-simulator-stdin").start()
    return requests


def run(options: dict[str, Any]) -> SimulatorRunner:
    runner = build_runner(options)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda *_: runner.stop.set())
    try:
        runner.run()
    finally:
        runner.dealer.log.close()
    return runner


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="shoe_simulator", description=__doc__)
    add_arguments(parser)
    runner = run(vars(parser.parse_args(argv)))
    return 0 if runner.finished else 1
