"""How a card is drawn on a screen: its code and suit, or a back (a face-down card, always)."""

from __future__ import annotations

from typing import Any

from tables.engine.siete.cards import DECK as SPANISH_DECK
from tables.engine.siete.cards import SUIT_NAMES as SPANISH_SUIT_NAMES

FRENCH_SUITS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
FRENCH_RANKS = "23456789TJQKA"
FRENCH_DECK = tuple(rank + suit for suit in "shdc" for rank in FRENCH_RANKS)


def card_face(entry: dict[str, Any]) -> dict[str, Any]:
    code = entry.get("card")
    if not code or entry.get("face_down"):
        return {"back": True}
    return {"code": code, "suit": code[-1], "text": _text(code)}


def _text(code: str) -> str:
    suit = code[-1]
    if suit in FRENCH_SUITS and code[:-1] in FRENCH_RANKS:
        return code[:-1] + FRENCH_SUITS[suit]
    return code


def _spanish_picker() -> list[dict[str, Any]]:
    return [
        {"suit": suit, "name": name, "cards": [c for c in SPANISH_DECK if c.endswith(suit)]}
        for suit, name in SPANISH_SUIT_NAMES.items()
    ]


def _french_picker() -> list[dict[str, Any]]:
    return [
        {"suit": suit, "name": symbol, "cards": [c for c in FRENCH_DECK if c.endswith(suit)]}
        for suit, symbol in FRENCH_SUITS.items()
    ]


# The deck each game is dealt from, by the game's key (as the shoe's feed knows it too).
PICKERS = {"siete_y_medio": _spanish_picker, "seven_card_stud": _french_picker}


def deck_for_game(game: str) -> list[dict[str, Any]]:
    """The picker's cards, grouped by suit: the 40 Spanish cards or the 52 French ones."""
    picker = PICKERS.get(game)
    return picker() if picker is not None else []
