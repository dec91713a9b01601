"""What must hold after every Siete y Medio round, and what no refusal may say.

Chips are conserved (every stake is returned, paid or collected exactly once); replaying the
round's events from the state it started in gives the state it ended in; no card is on the
table more often than the shoe holds it; the bank's card is face up once the round settles
(R2); and no refusal, nor the live view beside it, names a card still face down.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tables.engine.errors import RuleError
from tables.engine.game import Event
from tables.engine.siete.evolve import evolve
from tables.engine.siete.state import HandCard, SieteState
from tables.engine.siete.view import live_view


def hidden_cards(state: SieteState) -> set[str]:
    """Codes of cards lying face down that no face-up copy on the table already shows."""
    round_ = state.round
    if round_ is None:
        return set()
    cards: list[HandCard] = [*round_.bank, *round_.dead]
    for box in round_.boxes:
        cards.extend(box.cards)
    hidden = {c.card for c in cards if not c.face_up and c.card is not None}
    shown = {c.card for c in cards if c.face_up and c.card is not None}
    return hidden - shown


def names_a_card(text: str, codes: set[str]) -> bool:
    return any(re.search(rf"(?<![0-9A-Z]){re.escape(code)}(?![0-9A-Z])", text) for code in codes)


@dataclass
class RoundChecks:
    """The checks of one round, or (after `add`) the totals of many."""

    rounds: int = 0
    commands: int = 0
    refusals: int = 0
    events: int = 0
    checks: Counter[str] = field(default_factory=Counter)
    tallies: Counter[str] = field(default_factory=Counter)
    violations: list[str] = field(default_factory=list)
    _start: SieteState | None = None
    _log: list[Event] = field(default_factory=list)

    def check(self, name: str, holds: bool, detail: object = "") -> None:
        self.checks[name] += 1
        if not holds and len(self.violations) < 50:
            self.violations.append(f"{name}: {detail}")

    def start(self, state: SieteState) -> None:
        self._start, self._log = state, []

    def recorded(self, events: tuple[Event, ...]) -> None:
        self.commands += 1
        self.events += len(events)
        self._log.extend(events)
        for event in events:
            if event.type == "alert.raised":
                self.tallies[f"alert:{event.data['code']}"] += 1
            elif event.type in ("bust.refused", "card.misdrawn", "shoe.shuffled", "card.held"):
                self.tallies[event.type] += 1

    def refusal(self, state: SieteState, error: RuleError) -> None:
        """A refusal names no hidden card, in its sentence, its params or the view beside it."""
        self.refusals += 1
        self.tallies[f"refused:{error.code}"] += 1
        hidden = hidden_cards(state)
        if not hidden:
            return
        said = f"{error.message} {json.dumps(error.params)}"
        self.check("refusal_names_no_hidden_card", not names_a_card(said, hidden), said)
        if self.refusals % 16 == 1:  # the live view is dearer to build: a sample of the states
            shown = json.dumps(live_view(state))
            self.check("live_view_shows_no_hidden_card", not names_a_card(shown, hidden))

    def finish(self, state: SieteState) -> None:
        self.rounds = 1
        start = self._start
        assert start is not None
        replayed, decks = start, state.settings.decks
        since_shuffle = Counter(start.shoe.drawn)
        for event in self._log:
            before, replayed = replayed, evolve(replayed, event)
            if event.type == "shoe.shuffled":
                since_shuffle = Counter(replayed.shoe.drawn)  # the cards left on the table
            else:
                for card in _cards_out(before, event):
                    since_shuffle[card] += 1
                    self.check("no_card_twice", since_shuffle[card] <= decks, (card, event))
        self.check("replay_reproduces_state", replayed == state)
        round_ = state.round
        if round_ is None or not (round_.settled or round_.voided):
            self.check("round_closes", False, "the round did not close")
            return
        self.check("round_closes", True)
        self.tallies["voided" if round_.voided else "settled"] += 1
        self._check_money(state)
        self._check_cards(state)
        if round_.settled:
            self.check("bank_face_up_at_settlement", all(c.face_up for c in round_.bank))

    def _check_money(self, state: SieteState) -> None:
        """Chips conserved: each stake comes back, is paid or is kept, exactly once."""
        round_ = state.round
        assert round_ is not None
        stakes = sum(b.stake for b in round_.boxes)
        removed = sum(b.stake for b in round_.boxes if b.removed is not None)
        closing = next(e.data for e in self._log if e.type in ("round.settled", "round.voided"))
        if round_.voided:
            self.check("void_returns_every_stake", closing["returned"] == stakes - removed)
            return
        self.check("staked_is_every_stake_in_play", closing["staked"] + removed == stakes)
        house = closing["staked"] - closing["returned"]
        self.check("chips_conserved", closing["house_result"] == house, closing)
        playing = [b for b in round_.boxes if b.removed is None]
        results = [b.result for b in playing if b.result is not None]
        self.check("every_box_settled_once", len(results) == len(playing))
        self.check("returns_add_up", sum(r.returned for r in results) == closing["returned"])
        for result in results:
            self.check("a_box_never_returns_less_than_nothing", result.returned >= 0, result)
        self.tallies["staked"] += closing["staked"]
        self.tallies["returned"] += closing["returned"]

    def _check_cards(self, state: SieteState) -> None:
        drawn = Counter(state.shoe.drawn)
        decks = state.settings.decks
        self.check("shoe_never_draws_a_card_twice", max(drawn.values(), default=0) <= decks)

    def add(self, other: RoundChecks) -> None:
        self.rounds += other.rounds
        self.commands += other.commands
        self.refusals += other.refusals
        self.events += other.events
        self.checks.update(other.checks)
        self.tallies.update(other.tallies)
        self.violations.extend(other.violations[: max(0, 50 - len(self.violations))])

    def report(self, rounds: int) -> dict[str, Any]:
        return {
            "rounds": rounds,
            "commands": self.commands,
            "refusals": self.refusals,
            "events": self.events,
            "tallies": dict(sorted(self.tallies.items())),
            "invariants": {name: {"checked": n} for name, n in sorted(self.checks.items())},
            "violations": self.violations,
            "ok": not self.violations,
        }


CARD_EVENTS = ("card.dealt", "card.dead", "card.burned", "card.misdrawn")


def _cards_out(before: SieteState, event: Event) -> list[str]:
    """The cards an event takes out of the shoe: drawn, or an unknown card now identified."""
    data = event.data
    if event.type in CARD_EVENTS and data.get("card") and not data.get("from_waiting"):
        return [data["card"]]
    if event.type == "card.revealed" and before.round is not None:
        round_ = before.round
        box = round_.box(data["box"]) if data["hand"] == "box" else None
        cards = round_.bank if box is None else box.cards
        if cards[data["index"]].card is None:
            return [data["card"]]
    return []
