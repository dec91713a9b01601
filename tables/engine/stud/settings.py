"""A Stud table's settings (RULES.md 2.2 and 3.1), validated when the table is configured."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from decimal import Decimal, InvalidOperation
from typing import Any

from tables.engine.errors import InvalidInputError

CHOICES: dict[str, tuple[str, ...]] = {
    "short_ante": ("all_in", "sit_out"),
    "bring_in_tie": ("position", "suit"),
    "high_hand_tie": ("position", "suit"),
    "out_of_turn": ("binding_if_unchanged", "refused"),
    "short_stub": ("community", "reshuffle_burns"),
    "community_first_actor": ("with_community", "sixth_street"),
    "exposed_seventh": ("replace", "plays_up"),
    "odd_chip": ("high_card_by_suit", "left_of_dealer"),
}
AMOUNTS = ("small_bet", "big_bet", "ante", "bring_in")
MAX_RAKE_PERCENT = Decimal(100)


@dataclass(frozen=True)
class StudSettings:
    """Amounts are integers of the smallest unit; `chip` is the smallest chip in play."""

    small_bet: int
    big_bet: int
    ante: int
    bring_in: int
    chip: int = 1
    raise_cap: int = 3
    heads_up_uncapped: bool = True
    short_ante: str = "all_in"
    bring_in_tie: str = "position"
    high_hand_tie: str = "position"
    open_pair_big_bet: bool = True
    out_of_turn: str = "binding_if_unchanged"
    burns: bool = True
    short_stub: str = "community"
    community_first_actor: str = "with_community"
    exposed_seventh: str = "replace"
    odd_chip: str = "high_card_by_suit"
    rake_percent: Decimal = Decimal(0)
    rake_cap: int | None = None
    rake_unit: int = 1

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any]) -> StudSettings:
        """Build and validate settings; missing amounts follow the seed's ratios."""
        unknown = sorted(set(raw) - {f.name for f in fields(cls)})
        if unknown:
            raise _bad(
                "unknown_setting",
                f"Unknown Stud setting(s): {', '.join(unknown)}.",
                settings=", ".join(unknown),
            )
        chip = _whole(raw, "chip", 1, minimum=1)
        small_bet = _whole(raw, "small_bet", None, minimum=1)
        settings = cls(
            small_bet=small_bet,
            big_bet=_whole(raw, "big_bet", 2 * small_bet, minimum=1),
            ante=_explicit_or_ratio(raw, "ante", small_bet, 5, chip, minimum=0),
            bring_in=_explicit_or_ratio(raw, "bring_in", small_bet, 2, chip, minimum=1),
            chip=chip,
            raise_cap=_whole(raw, "raise_cap", 3, minimum=0),
            rake_percent=_percent(raw.get("rake_percent", Decimal(0))),
            rake_cap=None if raw.get("rake_cap") is None else _whole(raw, "rake_cap", 0, minimum=0),
            rake_unit=_whole(raw, "rake_unit", chip, minimum=1),
            heads_up_uncapped=_flag(raw, "heads_up_uncapped"),
            open_pair_big_bet=_flag(raw, "open_pair_big_bet"),
            burns=_flag(raw, "burns"),
            short_ante=_choice(raw, "short_ante"),
            bring_in_tie=_choice(raw, "bring_in_tie"),
            high_hand_tie=_choice(raw, "high_hand_tie"),
            out_of_turn=_choice(raw, "out_of_turn"),
            short_stub=_choice(raw, "short_stub"),
            community_first_actor=_choice(raw, "community_first_actor"),
            exposed_seventh=_choice(raw, "exposed_seventh"),
            odd_chip=_choice(raw, "odd_chip"),
        )
        settings.verify()
        return settings

    def verify(self) -> None:
        """Amounts must be whole chips and in a sensible order."""
        for name in (*AMOUNTS, "rake_unit"):
            if getattr(self, name) % self.chip:
                raise _bad(
                    "not_whole_chips",
                    f"{name} must be a whole multiple of {self.chip}.",
                    setting=name,
                    chip=self.chip,
                )
        if self.rake_cap is not None and self.rake_cap % self.rake_unit:
            raise _bad(
                "not_whole_chips",
                "rake_cap must be a whole multiple of the rake unit.",
                setting="rake_cap",
                rake_unit=self.rake_unit,
            )
        if self.big_bet < self.small_bet:
            raise _bad(
                "bad_limits",
                "The big bet cannot be smaller than the small bet.",
                big_bet=self.big_bet,
                small_bet=self.small_bet,
            )
        if self.bring_in >= self.small_bet:
            # R8: a bring-in of the small bet would leave nothing to complete.
            raise _bad(
                "bad_limits",
                "The bring-in must be less than the small bet.",
                bring_in=self.bring_in,
                small_bet=self.small_bet,
            )

    def to_mapping(self) -> dict[str, Any]:
        """JSON-ready form (the rake percentage as a string, never a float)."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["rake_percent"] = str(self.rake_percent)
        return data


def _bad(code: str, message: str, **params: str | int) -> InvalidInputError:
    return InvalidInputError(message, code=code, params=params)


def _whole(raw: Mapping[str, Any], name: str, default: int | None, *, minimum: int) -> int:
    value = raw.get(name, default)
    if value is None:
        raise _bad("missing_setting", f"The Stud setting {name} is required.", setting=name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(
            "invalid_setting",
            f"{name} must be a whole number of chips, not {value!r}.",
            setting=name,
            value=repr(value),
        )
    if value < minimum:
        raise _bad(
            "invalid_setting", f"{name} must be at least {minimum}.", setting=name, minimum=minimum
        )
    return int(value)


def _explicit_or_ratio(
    raw: Mapping[str, Any], name: str, small_bet: int, divisor: int, chip: int, *, minimum: int
) -> int:
    """R7: an explicit ante or bring-in is taken as given; only a missing one is computed."""
    if raw.get(name) is not None:
        return _whole(raw, name, None, minimum=minimum)
    return _ratio(small_bet, divisor, chip, name)


def _ratio(small_bet: int, divisor: int, chip: int, name: str) -> int:
    if small_bet % (divisor * chip):
        raise _bad(
            "not_whole_chips",
            f"The default {name} (small bet / {divisor}) is not whole chips; set it explicitly.",
            setting=name,
            divisor=divisor,
        )
    return small_bet // divisor


def _flag(raw: Mapping[str, Any], name: str) -> bool:
    value = raw.get(name, getattr(StudSettings, name))
    if not isinstance(value, bool):
        raise _bad(
            "invalid_setting",
            f"{name} must be true or false, not {value!r}.",
            setting=name,
            value=repr(value),
        )
    return value


def _choice(raw: Mapping[str, Any], name: str) -> str:
    value = raw.get(name, getattr(StudSettings, name))
    if value not in CHOICES[name]:
        allowed = ", ".join(CHOICES[name])
        raise _bad(
            "invalid_setting",
            f"{name} must be one of {allowed}, not {value!r}.",
            setting=name,
            allowed=allowed,
            value=repr(value),
        )
    return str(value)


def _percent(value: Any) -> Decimal:
    """A percentage as Decimal or its string; floats are refused because money is exact."""
    if isinstance(value, float | bool) or not isinstance(value, Decimal | int | str):
        raise _bad(
            "invalid_setting",
            'rake_percent must be a decimal string such as "5".',
            setting="rake_percent",
        )
    try:
        percent = Decimal(value)
    except InvalidOperation:
        raise _bad(
            "invalid_setting",
            f"rake_percent {value!r} is not a number.",
            setting="rake_percent",
            value=repr(value),
        ) from None
    if not percent.is_finite() or not 0 <= percent <= MAX_RAKE_PERCENT:
        raise _bad(
            "invalid_setting", "rake_percent must be between 0 and 100.", setting="rake_percent"
        )
    return percent
