"""House settings of a Siete y Medio table (RULES.md 3.1), validated once, read everywhere.

Amounts (stakes, the smallest chip) are integers in the casino's money unit; every amount
is a whole multiple of the smallest chip. Paytable ratios are exact fractions (net win per
unit staked), written `"3:2"` in mappings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tables.engine.errors import InvalidInputError
from tables.engine.siete.hands import PUNTAJE, REAL, SIETE_Y_MEDIO

SHUFFLE_MODES = ("every_round", "cut_card")
TIE_RULES = ("push", "bank")
BREAKAGE_MODES = ("down", "up")
EXPOSED_PLAYER_CARD = ("plays", "player_option")
EXPOSED_BANK_CARD = ("void", "plays")
MISDRAWN_CARD = ("dead", "next_draw")

MAX_DECKS = 8
BOXES = 6

DEFAULT_PAYTABLE: dict[str, Fraction] = {
    REAL: Fraction(2),
    SIETE_Y_MEDIO: Fraction(3, 2),
    PUNTAJE: Fraction(1),
}


class SettingError(InvalidInputError):
    """A table setting with a bad value; `field` names the setting."""

    def __init__(
        self, field_name: str, message: str, *, code: str = "invalid_setting", **params: str | int
    ) -> None:
        super().__init__(
            f"{field_name}: {message}", code=code, params={"setting": field_name, **params}
        )
        self.field = field_name


@dataclass(frozen=True)
class SieteSettings:
    min_stake: int = 5
    max_stake: int = 500
    chip: int = 1
    decks: int = 1
    shuffle: str = "every_round"
    burn_after_shuffle: int = 0
    boxes_per_player: int = 1
    paytable: Mapping[str, Fraction] = field(default_factory=lambda: dict(DEFAULT_PAYTABLE))
    ties: str = "push"
    breakage: str = "down"
    exposed_player_card: str = "plays"
    exposed_bank_card: str = "void"
    misdrawn_card: str = "dead"

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any] | None = None) -> SieteSettings:
        """Validate a settings mapping (missing keys take the defaults) or raise SettingError."""
        values = dict(mapping or {})
        unknown = sorted(set(values) - set(_FIELDS))
        if unknown:
            raise SettingError(
                unknown[0], "is not a Siete y Medio table setting.", code="unknown_setting"
            )
        defaults = cls()
        kwargs: dict[str, Any] = {}
        for name in (
            "min_stake",
            "max_stake",
            "chip",
            "decks",
            "burn_after_shuffle",
            "boxes_per_player",
        ):
            kwargs[name] = _integer(name, values.get(name, getattr(defaults, name)))
        for name, choices in _CHOICES.items():
            kwargs[name] = _choice(name, values.get(name, getattr(defaults, name)), choices)
        kwargs["paytable"] = _paytable(values.get("paytable", defaults.paytable))
        settings = cls(**kwargs)
        settings.verify()
        return settings

    def verify(self) -> None:
        """Check the relations between settings (limits, chip, deck count)."""
        if self.chip < 1:
            raise SettingError("chip", "the smallest chip must be at least 1.")
        if self.min_stake < self.chip:
            raise SettingError("min_stake", "the minimum stake must be at least one smallest chip.")
        if self.max_stake < self.min_stake:
            raise SettingError("max_stake", "the maximum stake is below the minimum stake.")
        for name in ("min_stake", "max_stake"):
            if getattr(self, name) % self.chip:
                raise SettingError(
                    name,
                    f"must be a whole multiple of the smallest chip ({self.chip}).",
                    chip=self.chip,
                )
        if not 1 <= self.decks <= MAX_DECKS:
            raise SettingError("decks", f"the shoe holds 1 to {MAX_DECKS} decks.", most=MAX_DECKS)
        if not 0 <= self.burn_after_shuffle < 10:
            raise SettingError("burn_after_shuffle", "burn 0 to 9 cards after a shuffle.")
        if not 1 <= self.boxes_per_player <= BOXES:
            raise SettingError(
                "boxes_per_player", f"a player may play 1 to {BOXES} boxes.", most=BOXES
            )

    def to_mapping(self) -> dict[str, Any]:
        """The JSON-ready mapping that `from_mapping` reads back to an equal value."""
        mapping: dict[str, Any] = {
            name: getattr(self, name) for name in _FIELDS if name != "paytable"
        }
        mapping["paytable"] = {
            hand: f"{ratio.numerator}:{ratio.denominator}" for hand, ratio in self.paytable.items()
        }
        return mapping

    def ratio(self, hand_class: str) -> Fraction:
        return self.paytable[hand_class]


_FIELDS = (
    "min_stake",
    "max_stake",
    "chip",
    "decks",
    "shuffle",
    "burn_after_shuffle",
    "boxes_per_player",
    "paytable",
    "ties",
    "breakage",
    "exposed_player_card",
    "exposed_bank_card",
    "misdrawn_card",
)
_CHOICES = {
    "shuffle": SHUFFLE_MODES,
    "ties": TIE_RULES,
    "breakage": BREAKAGE_MODES,
    "exposed_player_card": EXPOSED_PLAYER_CARD,
    "exposed_bank_card": EXPOSED_BANK_CARD,
    "misdrawn_card": MISDRAWN_CARD,
}


def _integer(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SettingError(name, f"must be a whole number, not {value!r}.", value=repr(value))
    return int(value)


def _choice(name: str, value: Any, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise SettingError(
            name,
            f"must be one of {', '.join(choices)}, not {value!r}.",
            allowed=", ".join(choices),
            value=repr(value),
        )
    return str(value)


def _paytable(value: Any) -> dict[str, Fraction]:
    if not isinstance(value, Mapping):
        raise SettingError("paytable", "must map real, siete_y_medio and puntaje to ratios.")
    unknown = sorted(set(value) - set(DEFAULT_PAYTABLE))
    if unknown:
        raise SettingError(
            "paytable", f"{unknown[0]!r} is not a hand class.", value=repr(unknown[0])
        )
    table = dict(DEFAULT_PAYTABLE)
    for hand, ratio in value.items():
        table[hand] = _ratio(ratio)
    return table


def _ratio(value: Any) -> Fraction:
    """Read a net-win ratio: `"3:2"`, `[3, 2]`, a whole number or a Fraction."""
    try:
        if isinstance(value, Fraction):
            ratio = value
        elif isinstance(value, str) and ":" in value:
            numerator, denominator = value.split(":")
            ratio = Fraction(int(numerator), int(denominator))
        elif isinstance(value, list | tuple) and len(value) == 2:
            ratio = Fraction(_integer("paytable", value[0]), _integer("paytable", value[1]))
        else:
            ratio = Fraction(_integer("paytable", value))
    except (ValueError, ZeroDivisionError) as error:
        raise SettingError(
            "paytable", f"{value!r} is not a ratio such as 3:2.", value=repr(value)
        ) from error
    if ratio <= 0:
        raise SettingError("paytable", "a net win must be more than nothing.")
    return ratio
