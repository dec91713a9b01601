"""Hand classes and their order: Real > Siete y Medio > Puntaje (by total); a bust loses.

A two-card 7½ is necessarily a 7 and a figure (no other pair of cards reaches 7½), so the
class of a hand needs only its card count, its total and, for the two-card 7½, the suits.
"""

from __future__ import annotations

from collections.abc import Sequence

from tables.engine.siete.cards import SIETE_Y_MEDIO_HALVES, SUIT_OF, VALUE_HALVES

REAL = "real"
SIETE_Y_MEDIO = "siete_y_medio"
PUNTAJE = "puntaje"
BUST = "bust"

HAND_CLASSES = (REAL, SIETE_Y_MEDIO, PUNTAJE, BUST)
# Order of the classes: a higher number beats a lower one; Puntaje hands then compare by total.
CLASS_ORDER = {BUST: 0, PUNTAJE: 1, SIETE_Y_MEDIO: 2, REAL: 3}


def hand_total(cards: Sequence[str]) -> int:
    """The total of known cards in half-points."""
    return sum(VALUE_HALVES[card] for card in cards)


def classify(cards: Sequence[str]) -> str:
    """The class of a complete, known hand."""
    total = hand_total(cards)
    if total > SIETE_Y_MEDIO_HALVES:
        return BUST
    if total == SIETE_Y_MEDIO_HALVES and len(cards) == 2:
        return REAL if SUIT_OF[cards[0]] == SUIT_OF[cards[1]] else SIETE_Y_MEDIO
    return PUNTAJE


def hand_strength(hand_class: str, total_halves: int) -> tuple[int, int]:
    """A key that orders hands: class first, then the total (which only Puntaje hands differ by)."""
    return CLASS_ORDER[hand_class], total_halves


def compare(player: Sequence[str], bank: Sequence[str]) -> int:
    """+1 if the player's hand beats the bank's, 0 on equal hands, -1 if it loses.

    Both hands are assumed not bust: a busted player loses before any comparison, and a
    busted bank pays every standing player.
    """
    player_key = hand_strength(classify(player), hand_total(player))
    bank_key = hand_strength(classify(bank), hand_total(bank))
    return (player_key > bank_key) - (player_key < bank_key)
