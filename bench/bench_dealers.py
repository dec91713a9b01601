"""Dealer clients for the load benchmarks: whole Siete y Medio rounds and Stud hands over
HTTP, driven by the live state each answer carries, as a tablet is. Every request's time and
status is kept; a refused request is an error and the dealer reads the table again."""

from __future__ import annotations

import multiprocessing
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from bench_floor import BenchTable
from bench_http import Client
from dealer_play import TablePlay


@dataclass
class Samples:
    reads: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    rounds: int = 0
    # (table id, the table's head seq after the write, when its answer arrived): what a
    # websocket listener's notice of that seq is timed against.
    acks: list[tuple[int, int, float]] = field(default_factory=list)
    # Each write as (when it was sent, its command, seconds): where a phase's tail comes from.
    timeline: list[tuple[float, str, float]] = field(default_factory=list)

    @property
    def writes(self) -> list[float]:
        """Each write's seconds, in the order sent."""
        return [seconds for _, _, seconds in self.timeline]


class Dealer(TablePlay):
    """One table's dealer: plays until `stop` is set or its requests run out, at `pace`
    requests per second (each request waits for its slot on a fixed schedule)."""

    def __init__(self, port: int, token: str, table: BenchTable, pace: float, seed: int) -> None:
        super().__init__(table.game, random.Random(seed), max_boxes=6)
        self.client = Client(port, token)
        self.table = table
        self.interval = 1.0 / pace
        self.samples = Samples()
        self.next_slot = time.monotonic() + self.rng.random() * self.interval
        self.stop = threading.Event()
        self.budget = 0

    def run(self, stop: threading.Event, budget: int, pace: float | None = None) -> None:
        self.stop, self.budget = stop, budget
        if pace is not None:
            self.interval = 1.0 / pace
            self.next_slot = time.monotonic() + self.rng.random() * self.interval
        while not self._done():
            try:
                self.play_one()
                self.samples.rounds += 1
            except _BudgetSpentError:
                return
            except Exception as error:  # a broken connection: reported, and play goes on
                self.samples.errors.append(f"{type(error).__name__}: {error}")

    def _done(self) -> bool:
        return self.stop.is_set() or self.budget <= 0

    def _wait_for_slot(self) -> None:
        if self._done():
            raise _BudgetSpentError
        self.budget -= 1
        delay = self.next_slot - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        self.next_slot = max(self.next_slot + self.interval, time.monotonic() - self.interval)

    def post(self, path: str, **data: Any) -> dict[str, Any] | None:
        self._wait_for_slot()
        status, body, elapsed = self.client.post(f"/api/tables/{self.table.table_id}/{path}", data)
        answered = time.perf_counter()
        self.samples.timeline.append((answered - elapsed, path.rsplit("/", 1)[-1], elapsed))
        if status >= 300:
            self.samples.errors.append(f"{status} {path}: {body}")
            return None
        if body["events"]:
            self.samples.acks.append((self.table.table_id, body["events"][-1]["seq"], answered))
        return dict(body["state"])

    def state(self) -> dict[str, Any]:
        self._wait_for_slot()
        status, body, elapsed = self.client.get(f"/api/tables/{self.table.table_id}")
        self.samples.reads.append(elapsed)
        if status != 200:
            self.samples.errors.append(f"{status} GET table: {body}")
            raise _BudgetSpentError
        return dict(body["state"])


class _BudgetSpentError(Exception):
    """The run's time or request budget is spent."""


class DealerCrews:
    """The dealers split among `count` processes, each with its own interpreter: 200 tablets
    are 200 devices, and 200 client threads under one interpreter lock queue for it, so a
    reply that arrives waits for the client before it is timed. Each process keeps its
    dealers from phase to phase (a hand a phase left open is finished in the next) and sends
    back their samples after each phase."""

    def __init__(self, dealers: list[Dealer], count: int) -> None:
        context = multiprocessing.get_context("fork")  # the dealers go as they are, unpickled
        self.dealers = dealers
        self.crews = [dealers[n::count] for n in range(count)]
        self.pipes: list[Any] = []
        self.processes: list[Any] = []
        for crew in self.crews:
            ours, theirs = context.Pipe()
            process = context.Process(target=_crew_plays, args=(crew, theirs), daemon=True)
            process.start()
            theirs.close()
            self.pipes.append(ours)
            self.processes.append(process)

    def play(self, seconds: float, budget: int, pace: float) -> None:
        """One phase in every process at once; each dealer's samples are then the phase's."""
        for pipe in self.pipes:
            pipe.send((seconds, budget, pace))
        for crew, pipe in zip(self.crews, self.pipes, strict=True):
            for dealer, samples in zip(crew, pipe.recv(), strict=True):
                dealer.samples = samples

    def close(self) -> None:
        for pipe in self.pipes:
            pipe.send(None)
        for process in self.processes:
            process.join(timeout=10)


class DealersHere:
    """The dealers on threads of this process (`DealerCrews`' interface, one crew)."""

    def __init__(self, dealers: list[Dealer]) -> None:
        self.dealers = dealers

    def play(self, seconds: float, budget: int, pace: float) -> None:
        play_in_threads(self.dealers, seconds, budget, pace)

    def close(self) -> None:
        return


def crews_of(dealers: list[Dealer], processes: int) -> DealerCrews | DealersHere:
    return DealerCrews(dealers, processes) if processes > 1 else DealersHere(dealers)


def play_in_threads(dealers: list[Dealer], seconds: float, budget: int, pace: float) -> None:
    """Every dealer on a thread of its own until `seconds` pass or its budget is spent."""
    for dealer in dealers:
        dealer.samples = Samples()
    stop = threading.Event()
    threads = [threading.Thread(target=d.run, args=(stop, budget, pace)) for d in dealers]
    deadline = time.perf_counter() + seconds
    for thread in threads:
        thread.start()
    while time.perf_counter() < deadline and any(t.is_alive() for t in threads):
        time.sleep(0.2)
    stop.set()
    for thread in threads:
        thread.join()


def _crew_plays(crew: list[Dealer], pipe: Any) -> None:
    while (phase := pipe.recv()) is not None:
        seconds, budget, pace = phase
        play_in_threads(crew, seconds, budget, pace)
        pipe.send([dealer.samples for dealer in crew])
