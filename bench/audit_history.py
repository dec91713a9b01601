"""The shift's audit on a table with ten prior shifts of history against a table with none.

    psql -h 127.0.0.1 -U postgres -c "CREATE DATABASE h_measure_audit"
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/h_measure_audit \\
    REDIS_URL=redis://127.0.0.1:6379/8 \\
        .venv/bin/python bench/audit_history.py --prior-shifts 10 --rounds 20 --repeats 100

For each game it makes two tables and plays whole shifts on them through the services, as the
demo shift does (opener counted by the dealer and a pit boss, buy-ins, fills and credits,
rounds, closer, drop): the aged table plays `--prior-shifts` shifts, each followed by its
audit (which leaves the verified checkpoint at the shift's end); then both tables play the
same last shift, with the same seed: the same hands, so that the two audits differ by the
history alone. The benchmark times the audit's work for one table of that last shift
(`table_findings`, the body of the per-table audit job: the chain from the last checkpoint,
the replay of the rounds walked, the shift's findings), the two tables alternately (each
first in every other pair), and prints each table's spread (median, quartiles, p90, p99,
largest), the ratios aged / fresh (medians, pairwise, p90, p99, and the p99 of each quarter of
the pairs: how much a p99 moves within one run), and the full collections of the interpreter
that fell inside a sample with their time. A full collection walks the whole process's heap,
whatever the table: after the warm-up the setup's garbage is collected first (`--no-collect`
leaves it to land in a sample, as before), and the p99 is also given without that time. The
p99 needs its samples: of 100 it is the largest, of 200 the second largest. For reference
it also times the full verification from seq 1 (`verify_log --full`'s walk) on both, over
`--full-repeats` pairs. Tables already played by an earlier run are reused.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from _django import setup
from bench_http import percentile


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--prior-shifts", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=30, help="rounds (hands) per shift")
    parser.add_argument("--repeats", type=int, default=100, help="pairs of audits timed")
    parser.add_argument(
        "--full-repeats", type=int, default=7, help="pairs of full verifications from seq 1 timed"
    )
    parser.add_argument(
        "--no-collect",
        action="store_true",
        help="leave the setup's garbage to be collected inside the samples",
    )
    parser.add_argument("--prefix", default="audit")
    args = parser.parse_args()
    setup(require_postgres=True)
    from reports.management.commands.simulate_shift import demo_staff
    from reports.shifts import floor_clock

    staff = demo_staff()
    clock = floor_clock()
    # The last ended shift and the ones before it, oldest first: the log's seqs rise with
    # the shifts' dates, as on the floor.
    keys = [clock.last_ended(datetime.now().astimezone())]
    for _ in range(args.prior_shifts):
        keys.insert(0, clock.last_ended(clock.bounds(keys[0])[0]))
    last = keys[-1]
    for game in ("siete_y_medio", "seven_card_stud"):
        fresh, aged = (_table(f"{args.prefix}-{game[:4]}-{kind}", game) for kind in ("0", "10"))
        start = time.perf_counter()
        for index, key in enumerate(keys[:-1]):
            _play(aged, key, args.rounds, staff, seed=args.rounds * 1000 + index)
        for table in (fresh, aged):
            _play(table, last, args.rounds, staff, seed=args.rounds * 1000 + len(keys))
        print(f"{game}: shifts played in {time.perf_counter() - start:.0f} s; "
              f"fresh table {_head(fresh)} events, aged {_head(aged)} events")  # fmt: skip
        _compare(game, fresh, aged, last, args.repeats, args.full_repeats, not args.no_collect)


def _table(name: str, game: str) -> Any:
    from reports.demo.shift import SIETE_SETTINGS, STUD_SETTINGS
    from tables.models import Table
    from tables.services.floor import table_create

    found = Table.objects.filter(name=name).first()
    if found is not None:
        return found
    siete = game == "siete_y_medio"
    return table_create(
        name=name,
        game=game,
        seat_count=6 if siete else 8,
        settings=SIETE_SETTINGS if siete else STUD_SETTINGS,
    )


def _play(table: Any, key: Any, rounds: int, staff: Any, seed: int) -> None:
    """One shift at one table and its audit (the checkpoint the next shift's audit starts
    from), unless an earlier run played it."""
    from reports.demo.shift import simulate_shift
    from reports.inputs.audit import table_findings
    from tables.services.custody.log import custody_events

    if custody_events(table, key):
        return
    simulate_shift([table], rounds=rounds, seed=seed, staff=staff, key=key, run_reports=False)
    table.refresh_from_db()
    findings = table_findings(table, key)
    if not all(check.verified for check in findings.chain):
        raise SystemExit(f"{table.name} {key}: the chain did not verify: {findings.chain}")


def _head(table: Any) -> int:
    table.refresh_from_db()
    return int(table.head_seq)


class FullCollections:
    """The interpreter's full collections (generation 2) and the time they took, while
    counting: a full collection walks every object of the process, so its cost is the heap's,
    not the audit's, and it lands in whichever sample crosses the collector's threshold."""

    def __init__(self) -> None:
        self.count, self.seconds, self.started = 0, 0.0, 0.0
        gc.callbacks.append(self._heard)

    def _heard(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self.started = time.perf_counter()
        else:
            self.count += 1
            self.seconds += time.perf_counter() - self.started

    def reset(self) -> None:
        self.count, self.seconds = 0, 0.0


@dataclass
class Sample:
    ms: float
    walked: int
    full_collections: int
    full_collection_ms: float


def _compare(
    game: str, fresh: Any, aged: Any, key: Any, repeats: int, full_repeats: int, collect: bool
) -> None:
    from reports.inputs.audit import table_findings
    from tables.verification import verify_table

    def audit(table: Any) -> int:
        return int(table_findings(table, key).chain[0].events_checked)

    def full(table: Any) -> int:
        return int(verify_table(table).events_checked)

    pauses = FullCollections()

    def timed(work: Any, table: Any) -> Sample:
        pauses.reset()
        start = time.perf_counter()
        walked = work(table)
        ms = (time.perf_counter() - start) * 1000
        return Sample(ms, walked, pauses.count, pauses.seconds * 1000)

    for label, work, pairs in (
        ("the shift's audit", audit, repeats),
        ("full verification from seq 1", full, full_repeats),
    ):
        samples: dict[str, list[Sample]] = {"fresh": [], "aged": []}
        work(fresh), work(aged)  # warm-up: the first run of each also fills the caches
        if collect:
            # What the setup left behind (the shifts just played, the modules just imported)
            # is collected now, not inside whichever sample first crosses the threshold.
            gc.collect()
        loads = [os.getloadavg()[0]]
        order = (("fresh", fresh), ("aged", aged))
        for repeat in range(pairs):
            # Alternately first and second: whichever runs second would otherwise pay the
            # first one's garbage collection every time.
            for kind, table in order if repeat % 2 == 0 else order[::-1]:
                samples[kind].append(timed(work, table))
        loads.append(os.getloadavg()[0])
        print(f"{game}, {label}, {pairs} pairs [load {loads[0]:.1f} -> {loads[1]:.1f}]:")
        for kind in ("fresh", "aged"):
            runs = samples[kind]
            print(f"  {kind}: {_spread([s.ms for s in runs])}; "
                  f"{runs[-1].walked} events walked; {_pauses(runs)}")  # fmt: skip
        _ratios(samples, pairs)


def _spread(values: list[float]) -> str:
    quartiles = statistics.quantiles(values, n=4) if len(values) > 1 else values * 3
    return (
        f"median {statistics.median(values):.1f} ms (quartiles {quartiles[0]:.1f}-"
        f"{quartiles[2]:.1f}), p90 {percentile(values, 0.9):.1f}, p99 "
        f"{percentile(values, 0.99):.1f}, max {max(values):.1f}"
    )


def _pauses(samples: list[Sample]) -> str:
    hit = [s for s in samples if s.full_collections]
    if not hit:
        return "no full collection"
    spent = ", ".join(f"{s.full_collection_ms:.0f}" for s in hit)
    return f"full collections in {len(hit)} samples ({spent} ms)"


def _ratios(samples: dict[str, list[Sample]], pairs: int) -> None:
    """Aged over fresh: medians, pairwise, p99 of all samples and of each quarter of the pairs
    (how far a p99 moves from one stretch of the run to the next), and the p99 of the samples
    with their full collections' time taken out."""
    ms = {kind: [s.ms for s in values] for kind, values in samples.items()}
    own = {kind: [s.ms - s.full_collection_ms for s in values] for kind, values in samples.items()}
    pairwise = [a / f for f, a in zip(ms["fresh"], ms["aged"], strict=True)]
    quarters = []
    if pairs >= 8:
        size = pairs // 4
        for start in range(0, size * 4, size):
            part = {kind: values[start : start + size] for kind, values in ms.items()}
            quarters.append(percentile(part["aged"], 0.99) / percentile(part["fresh"], 0.99))
    by_quarter = ", ".join(f"{ratio:.2f}" for ratio in quarters) or "too few pairs"
    print(
        f"  aged / fresh: median {_ratio(ms, 0.5)} (pairwise median "
        f"{statistics.median(pairwise):.2f}, quartiles "
        f"{_quartiles(pairwise)}); p90 {_ratio(ms, 0.9)}; p99 {_ratio(ms, 0.99)} (by quarter "
        f"of the pairs: {by_quarter}); p99 without full collections {_ratio(own, 0.99)}",
        flush=True,
    )


def _ratio(values: dict[str, list[float]], fraction: float) -> str:
    return f"{percentile(values['aged'], fraction) / percentile(values['fresh'], fraction):.2f}"


def _quartiles(values: list[float]) -> str:
    if len(values) < 2:
        return "-"
    low, _, high = statistics.quantiles(values, n=4)
    return f"{low:.2f}-{high:.2f}"


if __name__ == "__main__":
    main()
