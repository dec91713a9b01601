"""The shift's audit on a table with ten prior shifts of history against a table with none.

    psql -h 127.0.0.1 -U postgres -c "CREATE DATABASE h_measure_audit"
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/h_measure_audit \\
    REDIS_URL=redis://127.0.0.1:6379/8 \\
        .venv/bin/python bench/audit_history.py --prior-shifts 10 --rounds 30 --repeats 7

For each game it makes two tables and plays whole shifts on them through the services, as the
demo shift does (opener counted by the dealer and a pit boss, buy-ins, fills and credits,
rounds, closer, drop): the aged table plays `--prior-shifts` shifts, each followed by its
audit (which leaves the verified checkpoint at the shift's end); then both tables play the
same last shift. The benchmark times the audit's work for one table of that last shift
(`table_findings`, the body of the per-table audit job: the chain from the last checkpoint,
the replay of the rounds walked, the shift's findings), the two tables alternately (each
first in every other pair), and prints the medians, the p99 (of few samples: about the
largest) and their ratios. For reference it also times the full verification from seq 1
(`verify_log --full`'s walk) on both. Tables already played by an earlier run are reused.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from datetime import datetime
from typing import Any

from _django import setup
from bench_http import percentile


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--prior-shifts", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=30, help="rounds (hands) per shift")
    parser.add_argument("--repeats", type=int, default=7)
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
        for key in keys[:-1]:
            _play(aged, key, args.rounds, staff)
        _play(fresh, last, args.rounds, staff)
        _play(aged, last, args.rounds, staff)
        print(f"{game}: shifts played in {time.perf_counter() - start:.0f} s; "
              f"fresh table {_head(fresh)} events, aged {_head(aged)} events")  # fmt: skip
        _compare(game, fresh, aged, last, args.repeats)


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


def _play(table: Any, key: Any, rounds: int, staff: Any) -> None:
    """One shift at one table and its audit (the checkpoint the next shift's audit starts
    from), unless an earlier run played it."""
    from reports.demo.shift import simulate_shift
    from reports.inputs.audit import table_findings
    from tables.services.custody.log import custody_events

    if custody_events(table, key):
        return
    simulate_shift([table], rounds=rounds, seed=table.pk * 100 + rounds, staff=staff, key=key,
                   run_reports=False)  # fmt: skip
    table.refresh_from_db()
    findings = table_findings(table, key)
    if not all(check.verified for check in findings.chain):
        raise SystemExit(f"{table.name} {key}: the chain did not verify: {findings.chain}")


def _head(table: Any) -> int:
    table.refresh_from_db()
    return int(table.head_seq)


def _compare(game: str, fresh: Any, aged: Any, key: Any, repeats: int) -> None:
    from reports.inputs.audit import table_findings
    from tables.verification import verify_table

    def audit(table: Any) -> tuple[float, int]:
        start = time.perf_counter()
        findings = table_findings(table, key)
        return time.perf_counter() - start, findings.chain[0].events_checked

    def full(table: Any) -> tuple[float, int]:
        start = time.perf_counter()
        result = verify_table(table)
        return time.perf_counter() - start, result.events_checked

    for label, work in (("the shift's audit", audit), ("full verification from seq 1", full)):
        samples: dict[str, list[float]] = {"fresh": [], "aged": []}
        walked = {}
        work(fresh), work(aged)  # warm-up: the first run of each also fills the caches
        loads = [os.getloadavg()[0]]
        order = (("fresh", fresh), ("aged", aged))
        for repeat in range(repeats):
            # Alternately first and second: whichever runs second would otherwise pay the
            # first one's garbage collection every time.
            for kind, table in order if repeat % 2 == 0 else order[::-1]:
                seconds, walked[kind] = work(table)
                samples[kind].append(seconds * 1000)
        loads.append(os.getloadavg()[0])
        medians = {kind: statistics.median(values) for kind, values in samples.items()}
        ratio = medians["aged"] / medians["fresh"]
        ratios = [a / f for f, a in zip(samples["fresh"], samples["aged"], strict=True)]
        p99 = {kind: percentile(values, 0.99) for kind, values in samples.items()}
        print(
            f"{game}, {label}: fresh median {medians['fresh']:.1f} ms "
            f"({walked['fresh']} events walked), aged median {medians['aged']:.1f} ms "
            f"({walked['aged']} events walked); aged / fresh {ratio:.2f} "
            f"(pairwise median {statistics.median(ratios):.2f}, {repeats} pairs); p99 fresh "
            f"{p99['fresh']:.1f} ms, aged {p99['aged']:.1f} ms, {p99['aged'] / p99['fresh']:.2f} "
            f"[load {loads[0]:.1f} -> {loads[1]:.1f}]",
            flush=True,
        )


if __name__ == "__main__":
    main()
