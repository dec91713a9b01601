"""The Spanish 40-card deck: card codes, values and the suit/figure facts settlement needs.

A card is carried everywhere as its canonical code (`7O`, `10B`, `12C`). Values are counted
in half-points so that 7½ is the integer 15 and no arithmetic ever leaves the integers.
"""

from __future__ import annotations

from tables.engine.errors import InvalidInputError

SUITS = ("O", "C", "E", "B")
SUIT_NAMES = {"O": "Oros", "C": "Copas", "E": "Espadas", "B": "Bastos"}
RANKS = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
FIGURE_RANKS = frozenset({10, 11, 12})

SIETE_Y_MEDIO_HALVES = 15  # 7½, the limit of a hand
DECK_SIZE = len(SUITS) * len(RANKS)

DECK: tuple[str, ...] = tuple(f"{rank}{suit}" for suit in SUITS for rank in RANKS)

# Precomputed once: the hot paths (live settlement and the simulation) only look codes up.
VALUE_HALVES: dict[str, int] = {
    f"{rank}{suit}": (1 if rank in FIGURE_RANKS else 2 * rank) for rank in RANKS for suit in SUITS
}
SUIT_OF: dict[str, str] = {code: code[-1] for code in DECK}
RANK_OF: dict[str, int] = {code: int(code[:-1]) for code in DECK}
IS_FIGURE: dict[str, bool] = {code: RANK_OF[code] in FIGURE_RANKS for code in DECK}
IS_SEVEN: dict[str, bool] = {code: RANK_OF[code] == 7 for code in DECK}


def parse_card(text: object) -> str:
    """Return the canonical code of a card typed or read as `text`, or refuse it.

    Parsing is case-insensitive and ignores surrounding spaces; 8s, 9s, unknown suits and
    anything else are refused with the code `invalid_card`.
    """
    if isinstance(text, str):
        code = text.strip().upper()
        if code in VALUE_HALVES:
            return code
    raise InvalidInputError(
        f"{text!r} is not a card of the Spanish deck: use rank 1-7, 10, 11 or 12 and suit "
        "O, C, E or B, for example 7O or 10B.",
        code="invalid_card",
        params={"text": repr(text)},
    )


def card_value_halves(code: str) -> int:
    """The card's value in half-points: 1-7 count their number, figures count ½."""
    return VALUE_HALVES[code]


def format_points(halves: int) -> str:
    """Render a total in half-points as the decimal string the screens and the log use."""
    whole, half = divmod(halves, 2)
    return f"{whole}.5" if half else str(whole)
