"""The host itself, printed beside a benchmark's figures: its database commit and its speed.

The hosts this project is measured on differ, and one host differs from hour to hour: the same
dealer API answered in a median of 20-22 ms on some and 2.3-2.6 ms on another, and the same
floor run cost 4.1 to 6.7 ms of server CPU per request on one evening (docs/PERFORMANCE.md).
So the HTTP benchmarks time two things of the host's in the same run:
- the database's commit, which every write waits for (fsync is on): one-row INSERTs, each
  committed on its own, into a scratch table that is dropped afterwards;
- a fixed piece of the service's own Python work, the Siete y Medio engine playing the same
  seeded rounds through decide/evolve, timed before and after the load: a slower figure says
  the host was slower, whatever the code did.
"""

from __future__ import annotations

import statistics
import time
import uuid
from random import Random

from bench_http import percentile

COMMITS = 200
REFERENCE_ROUNDS = 300  # six boxes each; about a fifth of a second on this project's machine


def commit_latency(samples: int = COMMITS) -> str:
    """'median x ms, p99 y ms' of a one-row INSERT and its COMMIT, on the default database."""
    from django.db import connection

    scratch = f"bench_commit_probe_{uuid.uuid4().hex[:8]}"
    times: list[float] = []
    with connection.cursor() as cursor:
        # A logged table: an unlogged or temporary one would not wait for the flush.
        cursor.execute(f"CREATE TABLE {scratch} (id bigserial PRIMARY KEY, note integer)")
        try:
            for note in range(samples):
                start = time.perf_counter()
                cursor.execute(f"INSERT INTO {scratch} (note) VALUES (%s)", [note])
                times.append((time.perf_counter() - start) * 1000)
        finally:
            cursor.execute(f"DROP TABLE {scratch}")
    return f"median {statistics.median(times):.2f} ms, p99 {percentile(times, 0.99):.2f} ms"


def reference_work_ms(repeats: int = 3) -> float:
    """The median time of the same seeded engine rounds, in milliseconds."""
    from tables.engine.siete.simulation import simulate

    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        simulate(REFERENCE_ROUNDS, 6, 5, Random(1), via="engine")
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def print_commit_latency() -> None:
    print(f"   the database's commit on this host (a one-row INSERT, {COMMITS} times, each "
          f"committed): {commit_latency()}", flush=True)  # fmt: skip


def print_reference_work(when: str) -> None:
    """`when`: "before" or "after" the load."""
    print(f"   the host's reference work {when} the load ({REFERENCE_ROUNDS} seeded Siete y "
          f"Medio rounds through the engine, median of 3): {reference_work_ms():.0f} ms",
          flush=True)  # fmt: skip
