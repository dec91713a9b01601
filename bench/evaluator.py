"""Benchmark: the poker evaluator against treys, eval7 and pokerkit on the same 7-card hands.

Run: ``.venv/bin/python bench/evaluator.py [--hands 200000] [--seed 1] [--repeat 3]
[--skip-pokerkit]``

Every library is fed its own pre-parsed cards, parsed outside the timed loop, and called once
per hand through its public API in a plain ``for`` loop. ``best_hand`` on card-code strings
(parsing and validation included) is timed as well, and again reading the five cards used,
which :class:`HandValue` works out on first use. Times are processor
time of this process (the machine is shared), and the fast libraries take turns for
``--repeat`` rounds, keeping each one's best; pokerkit, which needs about a minute for 200,000
hands, runs once. The script also checks that the four libraries order the hands alike, and
measures how long a fresh interpreter takes to import the evaluator with its tables.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import eval7
import pokerkit
import treys

from tables.engine.poker.cards import ALL_CODES, parse_card
from tables.engine.poker.evaluator import best_hand, strength_of


def random_hands(count: int, seed: int) -> list[tuple[str, ...]]:
    rng = random.Random(seed)
    return [tuple(rng.sample(ALL_CODES, 7)) for _ in range(count)]


def cpu_seconds(evaluate: Callable[[Any], object], inputs: Sequence[Any]) -> float:
    """Processor time of one pass; unlike wall time, other work on the machine does not count."""
    started = time.process_time()
    for item in inputs:
        evaluate(item)
    return time.process_time() - started


def best_rates(
    entries: dict[str, tuple[Callable[[Any], Any], list[Any]]], repeat: int
) -> dict[str, float]:
    """Hands per second of each entry, best of `repeat` rounds that take turns among the entries."""
    best = dict.fromkeys(entries, float("inf"))
    for _ in range(repeat):
        for name, (evaluate, inputs) in entries.items():
            best[name] = min(best[name], cpu_seconds(evaluate, inputs))
    return {name: len(entries[name][1]) / seconds for name, seconds in best.items()}


def contenders(hands: list[tuple[str, ...]]) -> dict[str, tuple[Callable[[Any], Any], list[Any]]]:
    """Each library's evaluate-one-hand call and its pre-parsed hands."""
    ours = {code: parse_card(code) for code in ALL_CODES}
    e7 = {code: eval7.Card(code) for code in ALL_CODES}
    tr = {code: treys.Card.new(code) for code in ALL_CODES}
    pk = {code: next(iter(pokerkit.Card.parse(code))) for code in ALL_CODES}
    treys_evaluator = treys.Evaluator()

    def treys_call(split: tuple[list[int], list[int]]) -> int:
        score: int = treys_evaluator.evaluate(*split)
        return score

    return {
        "strength_of": (strength_of, [tuple(ours[c] for c in hand) for hand in hands]),
        "best_hand (strings)": (best_hand, hands),
        "best_hand + .cards": (lambda hand: best_hand(hand).cards, hands),
        "eval7": (eval7.evaluate, [[e7[c] for c in hand] for hand in hands]),
        "treys": (treys_call, [([tr[c] for c in h[:2]], [tr[c] for c in h[2:]]) for h in hands]),
        "pokerkit": (
            pokerkit.StandardHighHand.from_game,
            [tuple(pk[c] for c in hand) for hand in hands],
        ),
    }


def orders_agree(scores: dict[str, list[Any]]) -> bool:
    """Whether every library sorts the hands into the same order with the same ties."""
    ours = scores["strength_of"]
    order = sorted(range(len(ours)), key=ours.__getitem__)
    for name, theirs in scores.items():
        for weaker, stronger in pairwise(order):
            tie = ours[weaker] == ours[stronger]
            if tie != (theirs[weaker] == theirs[stronger]):
                return False
            # treys scores 1 for the best hand: lower is stronger there.
            if name == "treys":
                weaker, stronger = stronger, weaker
            if not tie and not theirs[weaker] < theirs[stronger]:
                return False
    return True


def import_seconds(*, compile_from_source: bool) -> float:
    """Wall time for a fresh interpreter to import the evaluator and decode its tables.

    With `compile_from_source`, an empty bytecode cache forces every module to be compiled,
    as on a first run after checkout.
    """
    probe = (
        "import time; t = time.perf_counter(); import tables.engine.poker.evaluator; "
        "print(time.perf_counter() - t)"
    )
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as empty_cache:
        env = dict(os.environ)
        if compile_from_source:
            env["PYTHONPYCACHEPREFIX"] = empty_cache
        result = subprocess.run(
            [sys.executable, "-c", probe],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    return float(result.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--skip-pokerkit", action="store_true", help="leave out pokerkit (about 70 s a pass)"
    )
    args = parser.parse_args()

    hands = random_hands(args.hands, args.seed)
    entries = contenders(hands)
    slow = {"pokerkit": entries.pop("pokerkit")}
    if args.skip_pokerkit:
        slow.clear()
    rates = best_rates(entries, args.repeat) | best_rates(slow, 1)
    for name, rate in rates.items():
        print(f"{name:<22}{rate:>14,.0f} hands/s")
    entries |= slow
    scores = {
        name: [evaluate(item) for item in inputs[:20_000]]
        for name, (evaluate, inputs) in entries.items()
        if not name.startswith("best_hand")
    }

    ours = rates["strength_of"]
    print()
    for name in ("treys", "eval7", *slow):
        print(f"{'strength_of':<20}/ {name:<10}{ours / rates[name]:>8.2f}x")
        for variant in ("best_hand (strings)", "best_hand + .cards"):
            print(f"{variant:<20}/ {name:<10}{rates[variant] / rates[name]:>8.2f}x")
    print()
    print(f"order agrees on the first 20,000 hands: {orders_agree(scores)}")
    cached, compiled = (import_seconds(compile_from_source=flag) for flag in (False, True))
    print(f"fresh import of the evaluator with its tables: {cached * 1000:.0f} ms")
    print(f"  the same with no bytecode cache (first run): {compiled * 1000:.0f} ms")
    print(f"{args.hands:,} hands, seed {args.seed}, best of {args.repeat} (pokerkit: one run)")
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
