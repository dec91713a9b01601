import random
from collections import Counter

import pytest

from devices.codec.cards import CUT_CARD_BYTE, DeckType, deck_bytes
from devices.simulator.faults import FaultPlan, FaultyOutput
from devices.simulator.shoe import SimulatedShoe


def drain(shoe: SimulatedShoe) -> list[int]:
    cards = []
    while not shoe.empty:
        cards.append(shoe.draw().card.card_byte)
    return cards


@pytest.mark.parametrize(("deck", "decks"), [(DeckType.SPANISH, 6), (DeckType.FRENCH, 2)])
def test_a_shoe_holds_every_card_of_every_pack_and_one_cut_card(deck: DeckType, decks: int) -> None:
    shoe = SimulatedShoe(deck, decks, random.Random(4))
    shoe.load()
    cards = drain(shoe)
    counts = Counter(cards)
    assert counts.pop(CUT_CARD_BYTE) == 1
    assert counts == dict.fromkeys(deck_bytes(deck), decks)
    cut_position = cards.index(CUT_CARD_BYTE)
    assert len(cards) * 0.7 < cut_position < len(cards) - 1


def test_the_same_seed_gives_the_same_shoe_and_another_seed_another() -> None:
    def dealt(seed: int) -> list[int]:
        shoe = SimulatedShoe(DeckType.SPANISH, 1, random.Random(seed))
        shoe.load()
        return drain(shoe)

    assert dealt(1) == dealt(1)
    assert dealt(1) != dealt(2)


def test_fault_plans_are_parsed_from_the_command_line_form() -> None:
    plan = FaultPlan.parse("corrupt=0.1, drop=0.02,reboot=0")
    assert plan == FaultPlan(corrupt=0.1, drop=0.02)
    with pytest.raises(ValueError, match="outside"):
        FaultPlan.parse("drop=1.5")


def test_a_certain_drop_sends_nothing_and_a_certain_duplicate_sends_twice() -> None:
    wire = b"\x00\x05abcd\x00"
    assert FaultyOutput(FaultPlan(drop=1.0), random.Random(1)).emit(wire) == b""
    assert FaultyOutput(FaultPlan(duplicate=1.0), random.Random(1)).emit(wire) == wire * 2
    corrupted = FaultyOutput(FaultPlan(corrupt=1.0), random.Random(1)).emit(wire)
    assert len(corrupted) == len(wire)
    assert corrupted != wire
