"""Card bytes on the wire and the project's card codes.

High nibble suit, low nibble rank. Anything outside a deck's table is unidentified: never a guess.
"""

from enum import IntEnum

CUT_CARD_BYTE = 0xE0
UNIDENTIFIED_BYTE = 0xFF


class DeckType(IntEnum):
    SPANISH = 1
    FRENCH = 2


DECK_SIZES = {DeckType.SPANISH: 40, DeckType.FRENCH: 52}

_SPANISH_SUITS = "OCEB"
_SPANISH_RANKS = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
_FRENCH_SUITS = "cdhs"
_FRENCH_RANK_NAMES = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}


def _spanish_table() -> dict[int, str]:
    return {
        suit_index << 4 | rank: f"{rank}{suit}"
        for suit_index, suit in enumerate(_SPANISH_SUITS)
        for rank in _SPANISH_RANKS
    }


def _french_table() -> dict[int, str]:
    return {
        suit_index << 4 | rank: f"{_FRENCH_RANK_NAMES.get(rank, str(rank))}{suit}"
        for suit_index, suit in enumerate(_FRENCH_SUITS)
        for rank in range(1, 14)
    }


_CODES_BY_BYTE: dict[DeckType, dict[int, str]] = {
    DeckType.SPANISH: _spanish_table(),
    DeckType.FRENCH: _french_table(),
}
_BYTES_BY_CODE: dict[DeckType, dict[str, int]] = {
    deck: {code: value for value, code in table.items()} for deck, table in _CODES_BY_BYTE.items()
}


def card_code(deck: DeckType, card_byte: int) -> str | None:
    """The project's card code for a wire byte, or None when the card is not identified."""
    return _CODES_BY_BYTE[deck].get(card_byte)


def card_byte(deck: DeckType, code: str) -> int:
    try:
        return _BYTES_BY_CODE[deck][code]
    except KeyError:
        raise ValueError(f"{code!r} is not a card of the {deck.name.lower()} deck") from None


def deck_bytes(deck: DeckType) -> tuple[int, ...]:
    """Every card of one pack, in table order."""
    return tuple(_CODES_BY_BYTE[deck])


def is_cut_card(card_byte: int) -> bool:
    return card_byte == CUT_CARD_BYTE
