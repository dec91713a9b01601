"""How a card is drawn on a screen: its code and suit, or a back (a face-down card, always)."""

from __future__ import annotations

from typing import Any

from tables import games

FRENCH_SUITS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
FRENCH_RANKS = "23456789TJQKA"


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


def deck_for_game(game: str) -> list[dict[str, Any]]:
    """The picker's cards, grouped by suit, from the game's own deck (its binding)."""
    suits = games.binding_for(game).card_suits
    return [{"suit": suit, "name": name, "cards": list(cards)} for suit, name, cards in suits]
