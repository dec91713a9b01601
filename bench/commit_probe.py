"""The database's own commit on this host, printed beside a benchmark's figures.

A dealer's command ends in a COMMIT that waits for the disk's flush (fsync is on). How long
that flush takes is the host's, not the service's, and the hosts this project is measured on
differ: the same dealer API answered in a median of 20-22 ms on some and 2.3-2.6 ms on another
(docs/PERFORMANCE.md). So the HTTP benchmarks time the database's commit in the same run: one-row
INSERTs, each committed on its own, into a scratch table that is dropped afterwards.
"""

from __future__ import annotations

import statistics
import time
import uuid

from bench_http import percentile

SAMPLES = 200


def commit_latency(samples: int = SAMPLES) -> str:
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


def print_commit_latency() -> None:
    print(f"   the database's commit on this host (a one-row INSERT, {SAMPLES} times, each "
          f"committed): {commit_latency()}", flush=True)  # fmt: skip
