"""Throughput of the Stud engine on whole simulated hands, with and without invariant checks.

Run: .venv/bin/python bench/stud_simulation.py [--hands N]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tables.engine.stud.simulation import simulate


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=2000)
    args = parser.parse_args()
    for policy, players in (("random", 6), ("calling-station", 8)):
        for check in (False, True):
            started = time.perf_counter()
            report = simulate(args.hands, players, policy, random.Random(1), check=check)
            elapsed = time.perf_counter() - started
            per_command = 1e6 * elapsed / report["commands"]
            print(
                f"{policy:>15}, {players} players, checks {'on ' if check else 'off'}: "
                f"{args.hands} hands in {elapsed:.2f} s = {args.hands / elapsed:,.0f} hands/s, "
                f"{per_command:.0f} us per command"
            )
    started = time.perf_counter()
    report = simulate(args.hands, 8, "random", random.Random(1), random_settings=True)
    elapsed = time.perf_counter() - started
    assert report["ok"], report["violations"]
    soak = 1e5 * elapsed / args.hands
    print(
        f"drawn settings, 2-8 players, checks on: {args.hands} hands in {elapsed:.2f} s = "
        f"{args.hands / elapsed:,.0f} hands/s (100,000 hands in {soak:,.0f} s)"
    )


if __name__ == "__main__":
    main()
