"""Simulated Siete y Medio rounds per second, on both paths of tables.engine.siete.simulation.

    .venv/bin/python bench/siete_simulation.py [--rounds 200000] [--engine-rounds 5000]
        [--play-rounds 5000]

The fast path calls the same rule functions decide uses; the engine path sends every command
through decide/evolve. Both consume the random source identically (tests prove equal reports).
Then the two invariant runs of the slow tier: rounds by the rule functions under drawn
settings (every payout checked), and random play through decide/evolve under drawn settings
with every invariant checked (replay, chips, no card twice, disclosure).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from random import Random

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tables.engine.siete.random_play import simulate_random_play
from tables.engine.siete.simulation import simulate, simulate_settings


def measure(rounds: int, seats: int, via: str) -> float:
    started = time.perf_counter()
    simulate(rounds, seats, 5, Random(1), via=via)
    return rounds / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=200_000)
    parser.add_argument("--engine-rounds", type=int, default=5_000)
    parser.add_argument("--play-rounds", type=int, default=5_000)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    for seats in (1, 6):
        fast = measure(args.rounds, seats, "rules")
        engine = measure(args.engine_rounds, seats, "engine")
        print(
            f"{seats} box(es): rules path {fast:,.0f} rounds/s "
            f"(1,000,000 rounds in {1_000_000 / fast:.0f} s); "
            f"decide/evolve path {engine:,.0f} rounds/s"
        )
    for name, run, rounds in (
        ("drawn settings, rule functions, payouts checked", simulate_settings, args.rounds),
        ("random play, decide/evolve, every invariant", simulate_random_play, args.play_rounds),
    ):
        started = time.perf_counter()
        report = run(rounds, Random(1))
        rate = rounds / (time.perf_counter() - started)
        assert report["ok"], report["violations"]
        print(f"{name}: {rate:,.0f} rounds/s (1,000,000 rounds in {1_000_000 / rate:,.0f} s)")


if __name__ == "__main__":
    main()
