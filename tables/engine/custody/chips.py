"""Chip counts, amounts and signatures: the checks every custody record shares.

A chip inventory maps each denomination (its value in the money unit) to a number of chips.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import TypeGuard

from tables.engine.errors import InvalidInputError


def frozen_chips(chips: Mapping[int, int]) -> Mapping[int, int]:
    return MappingProxyType(dict(chips))


def chips_total(chips: Mapping[int, int]) -> int:
    return sum(denomination * count for denomination, count in chips.items())


def chips_from_amounts(amounts: Mapping[int, int], denominations: Iterable[int]) -> dict[int, int]:
    """Turn a request written as amounts per denomination into chip counts."""
    allowed = tuple(sorted(denominations))
    counts = {}
    for denomination, amount in amounts.items():
        verify_denomination(denomination, allowed)
        verify_whole(amount, f"The amount in chips of {denomination}")
        if amount % denomination:
            raise InvalidInputError(
                f"{amount} is not a whole number of chips of {denomination}.",
                code="not_denominated",
            )
        counts[denomination] = amount // denomination
    verify_chips(counts, allowed)
    return counts


def verify_chips(chips: Mapping[int, int], denominations: tuple[int, ...]) -> None:
    for denomination, count in chips.items():
        verify_denomination(denomination, denominations)
        verify_whole(count, f"The count of chips of {denomination}")
        if count < 0:
            raise InvalidInputError(
                f"The count of chips of {denomination} cannot be negative ({count}).",
                code="negative_amount",
            )


def same_chips(first: Mapping[int, int], second: Mapping[int, int]) -> bool:
    """Equal counts per denomination; a denomination written with zero chips is no chips."""
    return {value: n for value, n in first.items() if n} == {
        value: n for value, n in second.items() if n
    }


def verify_signers(names: tuple[str, ...], what: str) -> None:
    if any(not isinstance(name, str) or not name.strip() for name in names):
        raise InvalidInputError(f"Every signature on {what} is required.", code="missing_signature")
    if len(set(names)) != len(names):
        raise InvalidInputError(
            f"The people signing {what} must be different people.", code="signers_not_distinct"
        )


def verify_amount(amount: object, what: str, *, allow_zero: bool) -> int:
    """``amount`` itself, once it is a whole number of units that may be counted."""
    if not is_whole(amount):
        raise InvalidInputError(
            f"{what} must be a whole number of units ({amount!r}).", code="invalid_amount"
        )
    if amount < 0:
        raise InvalidInputError(f"{what} cannot be negative ({amount}).", code="negative_amount")
    if amount == 0 and not allow_zero:
        raise InvalidInputError(f"{what} must be more than zero.", code="invalid_amount")
    return amount


def verify_denomination(denomination: int, denominations: tuple[int, ...]) -> None:
    if not is_whole(denomination) or denomination not in denominations:
        listed = ", ".join(str(value) for value in denominations)
        raise InvalidInputError(
            f"{denomination!r} is not a chip of this table (chips: {listed}).",
            code="not_denominated",
        )


def verify_whole(count: int, what: str) -> None:
    if not is_whole(count):
        raise InvalidInputError(
            f"{what} must be a whole number of chips ({count!r}).", code="not_denominated"
        )


def is_whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
