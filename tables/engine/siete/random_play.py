"""Random play of whole Siete y Medio rounds under settings a casino may choose.

Every command goes through `decide` and `evolve`, chosen from what the table may do now (the
legal commands the tablet is offered) by players and a dealer who sometimes err: stray cards
out of the shoe, cards dealt face up by mistake, tablet entries of face-down cards, false bust
declarations, voids. The random source comes in as an argument. Each round is checked against
the invariants in `siete.invariants`.
"""

from __future__ import annotations

from collections import deque
from random import Random
from typing import Any

from tables.engine.errors import RuleError
from tables.engine.game import Event
from tables.engine.siete import commands as c
from tables.engine.siete.cards import DECK, SIETE_Y_MEDIO_HALVES, VALUE_HALVES
from tables.engine.siete.decide import decide_and_evolve
from tables.engine.siete.invariants import RoundChecks
from tables.engine.siete.legal import legal_commands
from tables.engine.siete.rules import SETTLED, VOIDED, phase, round_in_progress
from tables.engine.siete.settings import SieteSettings
from tables.engine.siete.shoe import cards_on_table
from tables.engine.siete.state import SieteState

CHOICES: dict[str, tuple[Any, ...]] = {
    "decks": (1, 1, 1, 2, 4),
    "shuffle": ("every_round", "cut_card"),
    "burn_after_shuffle": (0, 0, 1, 2),
    "boxes_per_player": (1, 1, 2, 3),
    "ties": ("push", "bank"),
    "breakage": ("down", "up"),
    "exposed_player_card": ("plays", "player_option"),
    "exposed_bank_card": ("void", "plays"),
    "misdrawn_card": ("dead", "next_draw"),
}
PAYTABLES: tuple[dict[str, str], ...] = (
    {},
    {"real": "3:1", "siete_y_medio": "2:1", "puntaje": "1:1"},
    {"real": "2:1", "siete_y_medio": "6:5", "puntaje": "1:1"},
)
MAX_COMMANDS_PER_ROUND = 400
ROUNDS_PER_TABLE = 200  # long enough for cut-card shoes and reshuffles, short enough to vary
APPROVAL = ("dealer", "pit")


def random_settings(rng: Random) -> SieteSettings:
    """Limits, chip, paytable and every table option drawn at random."""
    chip = rng.choice((1, 1, 5))
    minimum = chip * rng.choice((1, 2, 5))
    values: dict[str, Any] = {name: rng.choice(options) for name, options in CHOICES.items()}
    values.update(
        min_stake=minimum,
        max_stake=minimum * rng.choice((1, 10, 100)),
        chip=chip,
        paytable=rng.choice(PAYTABLES),
    )
    return SieteSettings.from_mapping(values)


class PhysicalShoe:
    """The cards really in the shoe: refilled with what the engine put back at each shuffle."""

    def __init__(self, rng: Random) -> None:
        self.rng = rng
        self.cards: list[str] = []

    def refill(self, state: SieteState, unknown: list[str]) -> None:
        """After a shuffle: every copy, less the cards that stay on the table (`unknown`: the
        face-down cards the tablet has not entered yet)."""
        left = list(DECK) * state.settings.decks
        staying = [h.card for h in cards_on_table(state.round) if h.card is not None]
        for card in staying + unknown:
            if card in left:
                left.remove(card)
        self.rng.shuffle(left)
        self.cards = left

    def draw(self) -> str | None:
        return self.cards.pop() if self.cards else None


class RandomRound:
    """One table played round after round; `play_round` returns the round's checks."""

    def __init__(self, settings: SieteSettings, rng: Random) -> None:
        self.rng = rng
        self.state = SieteState(settings=settings)
        self.shoe = PhysicalShoe(rng)
        self.tablet = False
        # The true cards of face-down cards the tablet recorded as unknown, by owner (None: bank).
        self.truth: dict[int | None, deque[str]] = {}
        self.checks = RoundChecks()

    def send(self, command: c.Command) -> tuple[Event, ...] | None:
        """Apply `command`; a refusal leaves the state as it was and must name no hidden card."""
        try:
            state, events = decide_and_evolve(self.state, command)
        except RuleError as refusal:
            self.checks.refusal(self.state, refusal)
            return None
        self.checks.recorded(events)
        self.state = state
        for event in events:
            if event.type == "card.revealed":
                owner = event.data["box"] if event.data["hand"] == "box" else None
                waiting = self.truth.get(owner)
                if waiting and waiting[0] == event.data["card"]:
                    waiting.popleft()
            elif event.type == "shoe.shuffled":
                self.shoe.refill(state, [card for cards in self.truth.values() for card in cards])
        return events

    def done(self, command: c.Command) -> bool:
        return self.send(command) is not None

    def deal(self, face_up: bool | None = None) -> None:
        card = self.shoe.draw()
        if card is None:
            self.send(c.Reshuffle())
            card = self.shoe.draw()
            if card is None:
                return
        if self.tablet and face_up is not True and self.rng.random() < 0.7:
            events = self.send(c.RecordCard(None, face_up=face_up))
            if events is not None:
                for event in events:
                    if event.type == "card.dealt" and event.data["card"] is None:
                        owner = event.data["box"] if event.data["hand"] == "box" else None
                        self.truth.setdefault(owner, deque()).append(card)
                return
        source = "tablet" if self.tablet else "shoe"
        if not self.done(c.RecordCard(card, source=source, face_up=face_up)):
            self.shoe.cards.insert(0, card)  # a refused tablet entry: the card was not dealt

    def play_round(self) -> RoundChecks:
        self.checks = RoundChecks()
        self.tablet = self.rng.random() < 0.2
        self.truth = {}
        self.checks.start(self.state)
        cut_card = self.state.settings.shuffle == "cut_card" and not self.state.shoe.cut_card_out
        if cut_card and len(self.shoe.cards) < 15:
            self.send(c.CutCard())
        self._wagers()
        for _ in range(MAX_COMMANDS_PER_ROUND):
            if phase(self.state.round) in (SETTLED, VOIDED):
                break
            self._step()
        self.checks.finish(self.state)
        return self.checks

    def _wagers(self) -> None:
        settings = self.state.settings
        count = self.rng.choice((1, 1, 1, 2, 2, 3, 6))
        for box in sorted(self.rng.sample(range(1, 7), count)):
            chips = self.rng.randint(settings.min_stake, settings.max_stake) // settings.chip
            amount = max(chips * settings.chip, settings.min_stake)
            if self.rng.random() < 0.03:
                amount = settings.max_stake + settings.chip  # refused: above the maximum
            self.send(c.PlaceWager(box, amount))
        if not round_in_progress(self.state.round):
            self.send(c.PlaceWager(1, settings.min_stake))

    def _step(self) -> None:
        rng = self.rng
        if rng.random() < 0.01:
            self.send(c.RecordCard(self.shoe.draw() or DECK[0], source="shoe"))  # a stray card
            return
        if rng.random() < 0.03:
            self._probe()
            return
        legal = legal_commands(self.state)
        kinds = {entry["type"] for entry in legal}
        if "correct_held_card" in kinds:
            # The shoe misread: the card really drawn is one the shoe still held.
            true_card = self.shoe.draw()
            if true_card is None or not self.done(c.CorrectHeldCard(true_card, *APPROVAL)):
                self.send(c.VoidRound("fouled shoe", *APPROVAL))
            return
        if rng.random() < 0.002:
            self.send(c.VoidRound("misdeal", *APPROVAL))
            return
        if "record_card" in kinds:
            self.deal(face_up=True if rng.random() < 0.02 else None)
            return
        for entry in legal:
            if self._play(entry, kinds):
                return
        self.send(c.VoidRound("stuck", *APPROVAL))

    def _probe(self) -> None:
        """Entries that try to learn a hidden card: each must be answered without naming one.

        Only where every face-down card was read by the shoe, so that no guess is taken as the
        entry of an unknown card; a typed or read card is one already drawn as often as the
        shoe holds it, so that it is a duplicate.
        """
        rng, state = self.rng, self.state
        if self.tablet:
            return
        decks = state.settings.decks
        full = [card for card in set(state.shoe.drawn) if state.shoe.drawn.count(card) >= decks]
        box = rng.randint(1, 6)
        guess = rng.choice(DECK)
        probes: list[c.Command] = [
            c.Reveal(box, guess),
            c.DeclareBust(box, guess),
            c.ExposeBankCard(guess),
            c.RevealBank(guess),
            c.IdentifyCard(box, guess),
        ]
        if full:
            duplicate = rng.choice(sorted(full))
            probes.append(c.RecordCard(duplicate))  # typed on the tablet: refused
            if rng.random() < 0.1:
                probes = [c.RecordCard(duplicate, source="shoe")]  # read twice: held
        self.send(rng.choice(probes))

    def _play(self, entry: dict[str, Any], kinds: set[str]) -> bool:
        kind = entry["type"]
        if kind == "stand":
            return self._player_decision(int(entry["box"]), kinds)
        if kind == "reveal_bank":
            return self.done(c.RevealBank(self._entered(None)))
        if kind == "identify_card":
            box = entry.get("box")
            return self.done(c.IdentifyCard(box, self._entered(box) or DECK[0]))
        if kind == "sit_out" and self.rng.random() < 0.5:
            return self.done(c.SitOut(int(entry["box"])))
        return False

    def _player_decision(self, number: int, kinds: set[str]) -> bool:
        """Draw below a total the player picks, stand otherwise; declare a bust (or not)."""
        rng = self.rng
        total = self._true_total(number)
        entered = self._entered(number)
        if total > SIETE_Y_MEDIO_HALVES:
            if rng.random() < 0.85:
                return self.done(c.DeclareBust(number, entered))
            return self.done(c.Stand(number))  # an undeclared bust
        if rng.random() < 0.03:  # a false declaration: the cards are shown (R1)
            return self.done(c.DeclareBust(number, entered))
        if total < rng.choice((8, 9, 10, 11, 12)):
            if "reveal" in kinds and rng.random() < 0.3:
                return self.done(c.Reveal(number, entered))
            face_down = "reveal" not in kinds and rng.random() < 0.3
            return self.done(c.RequestDraw(number, face_down))
        return self.done(c.Stand(number))

    def _true_total(self, number: int) -> int:
        """What the player knows: his own face-down card included."""
        round_ = self.state.round
        assert round_ is not None
        box = round_.box(number)
        assert box is not None
        unknown = list(self.truth.get(number, ()))
        total = 0
        for hand_card in box.cards:
            code = hand_card.card if hand_card.card is not None else unknown.pop(0)
            total += VALUE_HALVES[code]
        return total

    def _entered(self, owner: int | None) -> str | None:
        """The card the dealer types as an unknown face-down card is turned up."""
        waiting = self.truth.get(owner)
        return waiting[0] if waiting else None


def simulate_random_play(rounds: int, rng: Random) -> dict[str, Any]:
    """Play `rounds` rounds; a fresh table with new settings every ROUNDS_PER_TABLE rounds."""
    totals = RoundChecks()
    played = 0
    while played < rounds:
        table = RandomRound(random_settings(rng), rng)
        for _ in range(min(ROUNDS_PER_TABLE, rounds - played)):
            totals.add(table.play_round())
            played += 1
    return totals.report(played)
