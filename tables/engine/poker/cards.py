"""The 52 card codes and their integer form.

A code is a rank (``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``, upper case) followed by a
suit (``c``, ``d``, ``h``, ``s``, lower case): ``"As"``, ``"Td"``, ``"7c"``. Nothing else is a
card: ``"10h"``, ``"as"`` and ``"AS"`` are refused, because the tablet and the shoe both send
exactly this form and a lenient parser would hide a device fault.

The integer form returned by :func:`parse_card` is built for the evaluator's hot path and is
otherwise opaque: add up to seven of them and the sum holds both the multiset of ranks (in base
5, above bit 24) and, per suit, seven times the number of cards of that suit (a 6-bit field
each). Seven times a count reaches 32 exactly when the count is five or more, so one mask
(:data:`FLUSH_BITS`) tells whether the cards hold a flush. Only compare, hash, or pass these ints
back to this package.
"""

from __future__ import annotations

from collections.abc import Iterable

from tables.engine.errors import InvalidInputError

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"

#: Rank values used in strengths and in :func:`rank_of`: 2..14, ace high.
RANK_VALUES = {char: index + 2 for index, char in enumerate(RANK_CHARS)}
SUIT_INDEXES = {char: index for index, char in enumerate(SUIT_CHARS)}

SUIT_FIELD_BITS = 6
# 4 * 7 < 32 <= 5 * 7 and 7 * 7 < 64: bit 5 of a suit's field is set from the fifth card of
# that suit on, and seven cards never overflow into the next field.
_SUIT_STEP = 7
RANK_KEY_SHIFT = SUIT_FIELD_BITS * len(SUIT_CHARS)
#: Set in a sum of cards exactly when five or more of them share a suit.
FLUSH_BITS = sum(32 << (SUIT_FIELD_BITS * suit_index) for suit_index in range(len(SUIT_CHARS)))


def rank_weight(rank: int) -> int:
    """The weight a card of `rank` (2..14) adds to a rank key.

    Base 5, because a rank has at most four cards: a base-5 digit never carries, so each rank
    multiset has its own key.
    """
    return int(5 ** (rank - 2))


def suit_unit(suit_index: int) -> int:
    """What a card of this suit adds to its suit's field in the low bits."""
    return _SUIT_STEP << (SUIT_FIELD_BITS * suit_index)


def _encode(rank: int, suit_index: int) -> int:
    return (rank_weight(rank) << RANK_KEY_SHIFT) | suit_unit(suit_index)


ALL_CODES: tuple[str, ...] = tuple(r + s for r in RANK_CHARS for s in SUIT_CHARS)
CARD_INTS: dict[str, int] = {
    code: _encode(RANK_VALUES[code[0]], SUIT_INDEXES[code[1]]) for code in ALL_CODES
}
CODES_BY_INT: dict[int, str] = {value: code for code, value in CARD_INTS.items()}


def parse_card(code: str) -> int:
    """The integer form of one card code; refuses anything that is not one of the 52 codes."""
    try:
        return CARD_INTS[code]
    except (KeyError, TypeError):
        raise InvalidInputError(
            f"{code!r} is not a card: use a rank 2-9, T, J, Q, K or A and a suit c, d, h or s.",
            code="invalid_card",
            params={"text": repr(code)},
        ) from None


def parse_cards(codes: Iterable[str]) -> tuple[int, ...]:
    """The integer forms of several card codes, in order."""
    return tuple(parse_card(code) for code in codes)


def card_code(card: int) -> str:
    """The code of a card in integer form."""
    return CODES_BY_INT[card]


def rank_of(card: int) -> int:
    """The rank (2..14) of a card in integer form."""
    return RANK_VALUES[CODES_BY_INT[card][0]]


def suit_of(card: int) -> int:
    """The suit index (clubs 0, diamonds 1, hearts 2, spades 3) of a card in integer form."""
    return SUIT_INDEXES[CODES_BY_INT[card][1]]
