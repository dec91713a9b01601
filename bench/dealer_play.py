"""How a dealer's tablet plays whole Siete y Medio rounds and Stud hands over HTTP, driven by
the live state each answer carries.

One implementation for the load benchmarks' dealers (bench/bench_dealers.py) and the
kill-a-node test's retrying dealers (tests/integration/retrying_dealers.py): they differ only
in how a request is sent, timed and recorded, which is what a subclass's `post` and `state`
say. Self-contained (no other bench module), so the tests can import it as `bench.dealer_play`.
"""

from __future__ import annotations

import random
from typing import Any

SIETE = "siete_y_medio"
SIETE_STAKE = 2
SPANISH_DECK = [f"{rank}{suit}" for rank in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12) for suit in "OCEB"]
FRENCH_DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]


class TablePlay:
    """One table's play. `post` sends a command and answers the table's new state (None when
    the command was refused); `state` reads the table's state."""

    def __init__(self, game: str, rng: random.Random, max_boxes: int) -> None:
        self.game, self.rng, self.max_boxes = game, rng, max_boxes
        # The deck of the hand in play, kept when a run stops mid-hand, so the next run (a
        # benchmark's next phase) finishes that hand with the same deck, not a reshuffled one.
        self.deck: list[str] = []

    def post(self, path: str, **data: Any) -> dict[str, Any] | None:
        raise NotImplementedError

    def state(self) -> dict[str, Any]:
        raise NotImplementedError

    def play_one(self) -> None:
        """One whole Siete y Medio round or Stud hand (finishing the one in play, if any)."""
        if self.game == SIETE:
            self.siete_round()
        else:
            self.stud_hand()

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
        # A run may have stopped between the round's start and its wagers: the next one places
        # them, or its first card is refused (no_wagers) again and again.
        if fresh or (state["phase"] == "betting" and not any(b["wager"] for b in state["boxes"])):
            for box in range(1, 1 + self.rng.randint(1, self.max_boxes)):
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
