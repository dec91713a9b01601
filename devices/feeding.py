"""What a shoe message means to the table's game: the engine command a drawn card becomes.

A card from the shoe goes to whoever the engine says is due (the deal order is known; the tablet
says beforehand which action a draw is for, e.g. a box's face-down draw). An unidentified card is
never guessed: it becomes a misread that holds the table's shoe cards (devices/registry/holds.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from devices.codec.cards import DeckType, card_code
from devices.codec.message_types import Message
from devices.codec.messages import (
    CardDrawn,
    CardMisread,
    CutCard,
    DrawAborted,
    Fault,
    ShoeEmpty,
    ShoeLoaded,
    Tamper,
)
from tables import games

# The decks a game's binding names (GameBinding.shoe_deck).
DECKS = {"spanish": DeckType.SPANISH, "french": DeckType.FRENCH}

CARD = "card"
MISREAD = "misread"
CUT = "cut"
OTHER = "other"


@dataclass(frozen=True)
class Reading:
    """A shoe message as the registry stores it: what kind of draw, and the card if read."""

    kind: str
    message_type: str
    payload: dict[str, Any] = field(default_factory=dict)
    draw_index: int | None = None
    card: str | None = None
    physical_id: str | None = None


def deck_for(game: str) -> DeckType | None:
    binding = games.find_binding(game)
    if binding is None or binding.shoe_deck is None:
        return None
    return DECKS[binding.shoe_deck]


def read_message(message: Message, deck: DeckType | None) -> Reading:
    """Decode a shoe message for storage; a card byte outside the table's deck is a misread."""
    name = message.TYPE.name
    payload = _payload(message)
    if isinstance(message, CardDrawn):
        code = card_code(deck, message.card) if deck is not None else None
        physical_id = message.uid.hex() or None
        if code is None:
            return Reading(MISREAD, name, payload, message.draw_index, None, physical_id)
        return Reading(CARD, name, payload, message.draw_index, code, physical_id)
    if isinstance(message, CardMisread):
        return Reading(MISREAD, name, payload, message.draw_index)
    if isinstance(message, CutCard):
        return Reading(CUT, name, payload, message.draw_index)
    return Reading(OTHER, name, payload)


def card_command(
    game: str, state: Any, card: str, physical_id: str | None, source: str = "shoe"
) -> Any:
    """The engine command for a card that left the shoe, for whoever the round expects next.

    `source` is "tablet" when the dealer entered a card the shoe could not read.
    """
    binding = games.find_binding(game)
    if binding is None or binding.shoe_card_command is None:
        raise ValueError(f"no shoe feeding for the game {game!r}")
    return binding.shoe_card_command(state, card, physical_id, source)


def cut_card_command(game: str) -> Any | None:
    """The game's command for the cut card, if it deals to one."""
    binding = games.find_binding(game)
    if binding is None or binding.shoe_cut_card_command is None:
        return None
    return binding.shoe_cut_card_command()


def _payload(message: Message) -> dict[str, Any]:
    """The message's fields, JSON-ready (bytes as hex)."""
    if isinstance(message, CardDrawn):
        return {
            "draw_index": message.draw_index,
            "card_byte": message.card,
            "method": message.method,
            "dev_ms": message.dev_ms,
            "uid": message.uid.hex(),
        }
    if isinstance(message, (CardMisread, DrawAborted)):
        return {
            "draw_index": message.draw_index,
            "reason": message.reason,
            "dev_ms": message.dev_ms,
        }
    if isinstance(message, CutCard):
        return {"draw_index": message.draw_index, "dev_ms": message.dev_ms}
    if isinstance(message, ShoeEmpty):
        return {"cards_drawn": message.cards_drawn, "dev_ms": message.dev_ms}
    if isinstance(message, ShoeLoaded):
        return {
            "deck_type": message.deck_type,
            "deck_count": message.deck_count,
            "shuffle_id": message.shuffle_id,
            "dev_ms": message.dev_ms,
        }
    if isinstance(message, Fault):
        return {
            "code": message.code,
            "severity": message.severity,
            "active": message.active,
            "dev_ms": message.dev_ms,
        }
    if isinstance(message, Tamper):
        return {"kind": message.kind, "active": message.active, "dev_ms": message.dev_ms}
    return {}
