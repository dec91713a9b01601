"""The physical shoe: packs shuffled together, a cut card, and an RFID uid on every card."""

import random
from dataclasses import dataclass

from devices.codec.cards import CUT_CARD_BYTE, DeckType, deck_bytes

UID_SIZE = 7


@dataclass(frozen=True, slots=True)
class PhysicalCard:
    card_byte: int
    uid: bytes


@dataclass(frozen=True, slots=True)
class Draw:
    draw_index: int
    card: PhysicalCard


class SimulatedShoe:
    """Cards leave in a seeded order; the cut card sits in the last fifth, as a dealer places it."""

    def __init__(self, deck: DeckType, decks: int, rng: random.Random) -> None:
        self.deck = deck
        self.decks = decks
        self._rng = rng
        self._cards: list[PhysicalCard] = []
        self.shuffle_id = 0
        self.drawn = 0

    def load(self) -> None:
        packs = [
            PhysicalCard(value, self._rng.randbytes(UID_SIZE))
            for _ in range(self.decks)
            for value in deck_bytes(self.deck)
        ]
        self._rng.shuffle(packs)
        cut_at = len(packs) - self._rng.randint(len(packs) // 8 + 1, len(packs) // 5 + 1)
        packs.insert(cut_at, PhysicalCard(CUT_CARD_BYTE, b""))
        self._cards = packs
        self.shuffle_id = self._rng.getrandbits(32)
        self.drawn = 0

    @property
    def empty(self) -> bool:
        return self.drawn >= len(self._cards)

    def draw(self) -> Draw:
        card = self._cards[self.drawn]
        self.drawn += 1
        return Draw(self.drawn, card)
