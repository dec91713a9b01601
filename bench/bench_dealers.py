"""Dealer clients for the load benchmarks: whole Siete y Medio rounds and Stud hands over
HTTP, driven by the live state each answer carries, as a tablet is. Every request's time and
status is kept; a refused request is an error and the dealer reads the table again."""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from bench_floor import SIETE, SIETE_STAKE, BenchTable
from bench_http import Client

SPANISH_DECK = [f"{rank}{suit}" for rank in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12) for suit in "OCEB"]
FRENCH_DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]


@dataclass
class Samples:
    writes: list[float] = field(default_factory=list)
    reads: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    rounds: int = 0
    # (table id, the table's head seq after the write, when its answer arrived): what a
    # websocket listener's notice of that seq is timed against.
    acks: list[tuple[int, int, float]] = field(default_factory=list)


class Dealer:
    """One table's dealer: plays until `stop` is set or its requests run out, at `pace`
    requests per second (each request waits for its slot on a fixed schedule)."""

    def __init__(self, port: int, token: str, table: BenchTable, pace: float, seed: int) -> None:
        self.client = Client(port, token)
        self.table = table
        self.interval = 1.0 / pace
        self.rng = random.Random(seed)
        self.samples = Samples()
        self.next_slot = time.monotonic() + self.rng.random() * self.interval
        self.stop = threading.Event()
        self.budget = 0
        # The deck of the hand in play, kept when a run stops mid-hand, so the next run (a
        # benchmark's next phase) finishes that hand with the same deck, not a reshuffled one.
        self.deck: list[str] = []

    def run(self, stop: threading.Event, budget: int, pace: float | None = None) -> None:
        self.stop, self.budget = stop, budget
        if pace is not None:
            self.interval = 1.0 / pace
            self.next_slot = time.monotonic() + self.rng.random() * self.interval
        play = self.siete_round if self.table.game == SIETE else self.stud_hand
        while not self._done():
            try:
                play()
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
        self.samples.writes.append(elapsed)
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

    def _fresh_deck(self, cards: list[str]) -> list[str]:
        self.deck = cards.copy()
        self.rng.shuffle(self.deck)
        return self.deck

    def siete_round(self) -> None:
        state = self.state()
        fresh = state["phase"] in ("no_round", "settled", "voided")
        deck = self._fresh_deck(SPANISH_DECK) if fresh or not self.deck else self.deck
        if fresh:
            self.post("siete/start-round")
            for box in range(1, 1 + self.rng.randint(1, 6)):
                self.post("siete/place-wager", box=box, amount=SIETE_STAKE)
            state = self.post("siete/record-card", card=deck.pop()) or self.state()
        for _ in range(80):
            if state["phase"] == "settled":
                return
            state = self._siete_step(state, deck) or self.state()
        raise RuntimeError(f"a Siete round did not finish: {state['phase']}")

    def _siete_step(self, state: dict[str, Any], deck: list[str]) -> dict[str, Any] | None:
        turn = state["turn"]
        if state["next_card"] is not None and (turn is None or turn["hand"] != "bank"):
            return self.post("siete/record-card", card=deck.pop())
        if turn and turn["hand"] == "box":
            box = next(b for b in state["boxes"] if b["box"] == turn["box"])
            if box["status"] == "playing" and self.rng.random() < 0.5:
                self.post("siete/request-draw", box=turn["box"], face_down=False)
                return self.post("siete/record-card", card=deck.pop())
            return self.post("siete/stand", box=turn["box"])
        if turn and turn["hand"] == "bank":
            if state["bank"]["cards"] and all("card" in c for c in state["bank"]["cards"]):
                return self.post("siete/record-card", card=deck.pop())
            return self.post("siete/reveal-bank")
        return self.post("siete/record-card", card=deck.pop())

    def stud_hand(self) -> None:
        state = self.state()
        fresh = state["phase"] in ("idle", "complete", "voided")
        deck = self._fresh_deck(FRENCH_DECK) if fresh or not self.deck else self.deck
        if fresh:
            state = self.post("rounds") or self.state()
        for _ in range(400):
            if state["phase"] in ("complete", "voided"):
                return
            state = self._stud_step(state, deck) or self.state()
        raise RuntimeError(f"a Stud hand did not finish: {state['phase']}")

    def _stud_step(self, state: dict[str, Any], deck: list[str]) -> dict[str, Any] | None:
        if state["card_due"] is not None:
            return self.post("stud/record-card", card=deck.pop())
        if state["to_act"] is not None:
            by_kind = {option["action"]: option for option in state["legal_actions"]}
            kind = next(k for k in ("check", "call", "bring_in") if k in by_kind)
            return self.post(
                f"stud/{kind.replace('_', '-')}", seat=state["to_act"],
                amount=by_kind[kind]["amount"],
            )  # fmt: skip
        if state["next_to_show"] is not None:
            return self.post("stud/show", seat=state["next_to_show"])
        return self.post("stud/award-pots")


class _BudgetSpentError(Exception):
    """The run's time or request budget is spent."""
