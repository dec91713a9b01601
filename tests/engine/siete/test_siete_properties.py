"""Invariants over random legal rounds: chips are conserved, no card is dealt more often than
the shoe holds it, and replaying the recorded events gives the same state.

A driver plays whatever the live view says is legal, with cards from a source that also holds
foreign cards (a second deck), so the engine's duplicate handling is exercised too.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st
from siete_table import Table

from tables.engine.errors import RuleError
from tables.engine.siete import (
    CorrectHeldCard,
    DeclareBust,
    IdentifyCard,
    PlaceWager,
    RecordCard,
    RecordPayout,
    RequestDraw,
    Reveal,
    RevealBank,
    SitOut,
    Stand,
    VoidBox,
    VoidRound,
    audit_view,
)
from tables.engine.siete.cards import DECK
from tables.engine.siete.commands import Command

TABLE_SETTINGS = st.fixed_dictionaries(
    {
        "decks": st.sampled_from([1, 2]),
        "ties": st.sampled_from(["push", "bank"]),
        "breakage": st.sampled_from(["down", "up"]),
        "misdrawn_card": st.sampled_from(["dead", "next_draw"]),
        "exposed_player_card": st.sampled_from(["plays", "player_option"]),
        "exposed_bank_card": st.sampled_from(["plays", "void"]),
        "min_stake": st.just(1),
        "max_stake": st.just(100),
    }
)


class Driver:
    def __init__(self, data: Any, table: Table, cards: list[str], tablet: bool) -> None:
        self.data, self.table, self.cards, self.tablet = data, table, cards, tablet

    def card(self) -> str:
        return self.cards.pop() if self.cards else self.true_card()

    def true_card(self) -> str:
        """The card the dealer finds in place of a misread one: one the shoe can still hold."""
        shoe = self.table.state.shoe
        decks = self.table.state.settings.decks
        left = [card for card in DECK if shoe.drawn.count(card) < decks]
        return self.pick(left) if left else "1O"

    def turned_up(self, box: int | None) -> str | None:
        """What the dealer enters for a face-down card turned up: only an unknown one is typed."""
        round_ = self.table.state.round
        assert round_ is not None
        owner = None if box is None else round_.box(box)
        hand = round_.bank if owner is None else owner.cards
        unknown = any(card.card is None for card in hand)
        return self.true_card() if unknown else None

    def pick(self, options: list[Any]) -> Any:
        return self.data.draw(st.sampled_from(options))

    def try_command(self, command: Command) -> None:
        before = self.table.state
        try:
            self.table.do(command)
        except RuleError as error:
            refused = error.code
            assert refused
            assert self.table.state is before

    def record_card(self, legal: dict[str, Any]) -> Command:
        face_up = self.pick([None, None, None, True])
        if self.tablet:
            card = None if self.pick([True, False]) else self.card()
            return RecordCard(card, face_up=face_up)
        return RecordCard(self.card(), source="shoe", face_up=face_up)

    def command_for(self, legal: dict[str, Any]) -> Command | None:
        kind, box = legal["type"], legal.get("box", 0)
        builders: dict[str, Any] = {
            "record_card": lambda: self.record_card(legal),
            "stand": lambda: Stand(box),
            "request_draw": lambda: RequestDraw(box, legal["face_down"]),
            "reveal": lambda: Reveal(box, self.turned_up(box)),
            "declare_bust": lambda: DeclareBust(box, self.turned_up(box)),
            "sit_out": lambda: SitOut(box),
            "reveal_bank": lambda: RevealBank(self.turned_up(None)),
            "identify_card": lambda: IdentifyCard(box, self.true_card()),
            "correct_held_card": lambda: CorrectHeldCard(self.true_card(), "dealer", "pit"),
            "void_box": lambda: VoidBox(box, "error", "dealer", "pit"),
            "void_round": lambda: VoidRound("error", "dealer", "pit"),
        }
        builder = builders.get(kind)
        return builder() if builder else None

    def play_round(self) -> None:
        boxes = self.data.draw(st.sets(st.integers(1, 6), min_size=1, max_size=6))
        for box in sorted(boxes):
            self.table.do(PlaceWager(box, self.data.draw(st.integers(1, 100))))
        self.table.do(RecordCard(self.card(), source="shoe"))
        strays = 0
        for _ in range(300):
            if self.table.phase in ("settled", "voided"):
                return
            if strays < 3 and self.data.draw(st.integers(0, 15)) == 0:
                strays += 1  # a stray card out of the shoe
                self.try_command(RecordCard(self.card(), source="shoe"))
                continue
            legal = [c for c in self.table.view()["legal"] if c["type"] not in ("reshuffle",)]
            rare = ("void_round", "void_box")
            common = [c for c in legal if c["type"] not in rare] or legal
            choice = self.pick(common if self.data.draw(st.integers(0, 30)) else legal)
            command = self.command_for(choice)
            if command is not None:
                self.try_command(command)
        raise AssertionError(f"the round did not finish: {self.table.view()}")


def check_money(table: Table) -> None:
    wagered = sum(e.data["amount"] for e in table.events if e.type == "wager.placed")
    closing = [e for e in table.events if e.type in ("round.settled", "round.voided")]
    assert len(closing) == 1
    if closing[0].type == "round.voided":
        assert closing[0].data["returned"] == wagered - _removed_stakes(table)
        return
    settled = closing[0].data
    assert settled["staked"] + _removed_stakes(table) == wagered
    assert settled["staked"] == settled["returned"] + settled["house_result"]
    removed = {e.data["box"] for e in table.events if e.type in ("box.voided", "wager.withdrawn")}
    boxes = [
        e.data for e in table.events if e.type == "box.settled" and e.data["box"] not in removed
    ]
    assert sum(b["returned"] for b in boxes) == settled["returned"]
    for box in boxes:
        assert box["returned"] == box["stake"] + box["net"] >= 0


def _removed_boxes(table: Table) -> set[int]:
    return {e.data["box"] for e in table.events if e.type in ("box.voided", "wager.withdrawn")}


def _removed_stakes(table: Table) -> int:
    removed = _removed_boxes(table)
    stakes = {e.data["box"]: e.data["amount"] for e in table.events if e.type == "wager.placed"}
    return sum(stakes[box] for box in removed)


def check_no_card_beyond_the_shoe(table: Table, decks: int) -> None:
    audit = audit_view(table.state)
    hands = [card for box in audit["boxes"] for card in box["cards"]] + audit["bank"]["cards"]
    seen = [c["card"] for c in hands + audit["dead_cards"] + audit["misdrawn_waiting"]]
    counts = Counter(card for card in seen if card is not None)
    assert all(count <= decks for count in counts.values()), counts


@settings(max_examples=60, deadline=None)
@given(data=st.data(), table_settings=TABLE_SETTINGS, tablet=st.booleans())
def test_random_legal_rounds_keep_the_invariants(
    data: Any, table_settings: dict[str, Any], tablet: bool
) -> None:
    cards = data.draw(st.permutations(list(DECK) * (table_settings["decks"] + 1)))
    table = Table(**table_settings)
    driver = Driver(data, table, list(cards), tablet)
    driver.play_round()
    event(f"closed: {table.phase}")
    for code in table.alerts():
        event(f"alert: {code}")
    check_money(table)
    for box in table.state.round.boxes if table.state.round else ():
        driver.try_command(RecordPayout(box.number, data.draw(st.integers(-100, 200))))
    check_no_card_beyond_the_shoe(table, table_settings["decks"])
    assert table.replayed() == table.state
    for recorded in table.events:
        assert json.loads(json.dumps(recorded.data)) == recorded.data
        assert not _floats(recorded.data), recorded


def _floats(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_floats(item) for item in value.values())
    if isinstance(value, list):
        return any(_floats(item) for item in value)
    return isinstance(value, float)
