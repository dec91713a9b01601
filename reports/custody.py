"""The chip custody of one table for one shift, as a fold over custody facts.

Amounts are integers of the casino's money unit; a chip inventory maps each denomination (its
value in that unit) to a number of chips. The facts are what the pit, the cage and the count
record: the opener and closer counts, fill and credit slips, slip voids, buy-ins and the counted
drop. :func:`apply_fact` refuses a fact the custody rules do not allow, with a stable code, and
otherwise returns the new ledger; the ledger is never edited in place.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Literal

from tables.engine.errors import InvalidInputError, NotAllowedNowError

SlipType = Literal["fill", "credit"]
SLIP_TYPES: tuple[SlipType, ...] = ("fill", "credit")


def _frozen_chips(chips: Mapping[int, int]) -> Mapping[int, int]:
    return MappingProxyType(dict(chips))


@dataclass(frozen=True)
class Opener:
    """The chip inventory a shift starts with, counted by the dealer and the pit boss."""

    chips: Mapping[int, int]
    dealer: str
    pit_boss: str
    carried_over: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "chips", _frozen_chips(self.chips))


@dataclass(frozen=True)
class Closer:
    """The chip inventory left on the table at the end of the shift."""

    chips: Mapping[int, int]
    dealer: str
    pit_boss: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "chips", _frozen_chips(self.chips))


@dataclass(frozen=True)
class Fill:
    """Chips brought from the cage: requested by the pit, issued by a cashier, confirmed by the
    dealer at the table."""

    slip_number: int
    chips: Mapping[int, int]
    requested_by: str
    issued_by: str
    confirmed_by: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "chips", _frozen_chips(self.chips))


@dataclass(frozen=True)
class Credit:
    """Chips sent back to the cage: requested by the pit, received by a cashier, confirmed by
    the dealer at the table."""

    slip_number: int
    chips: Mapping[int, int]
    requested_by: str
    received_by: str
    confirmed_by: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "chips", _frozen_chips(self.chips))


@dataclass(frozen=True)
class SlipVoided:
    """A fill or credit slip that is void: it keeps its number and counts for nothing."""

    slip_type: SlipType
    slip_number: int
    reason: str
    requested_by: str
    approved_by: str


@dataclass(frozen=True)
class BuyIn:
    """Cash changed for chips at the table; the sum is the estimated drop."""

    amount: int


@dataclass(frozen=True)
class DropCounted:
    """The drop box's cash as counted by the count team; final once entered."""

    amount: int
    counted_by: str


CustodyFact = Opener | Closer | Fill | Credit | SlipVoided | BuyIn | DropCounted


@dataclass(frozen=True)
class CustodyLedger:
    """Everything known about one table's chips in one shift."""

    table: str
    denominations: tuple[int, ...]
    slip_series: Mapping[SlipType, frozenset[int]] | None = None
    opener: Opener | None = None
    closer: Closer | None = None
    fills: tuple[Fill, ...] = ()
    credits: tuple[Credit, ...] = ()
    voids: tuple[SlipVoided, ...] = field(default=())
    buy_ins: tuple[BuyIn, ...] = ()
    drop: DropCounted | None = None

    @property
    def is_closed(self) -> bool:
        return self.closer is not None

    def void_of(self, slip_type: SlipType, slip_number: int) -> SlipVoided | None:
        for void in self.voids:
            if void.slip_type == slip_type and void.slip_number == slip_number:
                return void
        return None

    @property
    def fills_total(self) -> int:
        return sum(chips_total(fill.chips) for fill in self.fills if not self._voided(fill))

    @property
    def credits_total(self) -> int:
        return sum(chips_total(credit.chips) for credit in self.credits if not self._voided(credit))

    @property
    def estimated_drop(self) -> int:
        return sum(buy_in.amount for buy_in in self.buy_ins)

    def _voided(self, slip: Fill | Credit) -> bool:
        return self.void_of(_slip_type(slip), slip.slip_number) is not None


def new_ledger(
    table: str,
    denominations: Iterable[int],
    *,
    slip_series: Mapping[SlipType, Collection[int]] | None = None,
) -> CustodyLedger:
    """An empty ledger; ``slip_series`` (when given) holds the slip numbers the cage issued."""
    series = None
    if slip_series is not None:
        series = MappingProxyType(
            {kind: frozenset(slip_series.get(kind, ())) for kind in SLIP_TYPES}
        )
    return CustodyLedger(
        table=table, denominations=tuple(sorted(denominations)), slip_series=series
    )


def fold_custody(ledger: CustodyLedger, facts: Iterable[CustodyFact]) -> CustodyLedger:
    for fact in facts:
        ledger = apply_fact(ledger, fact)
    return ledger


def apply_fact(ledger: CustodyLedger, fact: CustodyFact) -> CustodyLedger:
    """The ledger with ``fact`` recorded, or a :class:`RuleError` saying why it cannot be."""
    match fact:
        case Opener():
            return _open(ledger, fact)
        case Closer():
            return _close(ledger, fact)
        case Fill() | Credit():
            return _record_slip(ledger, fact)
        case SlipVoided():
            return _void_slip(ledger, fact)
        case BuyIn():
            _verify_table_open(ledger, "record a buy-in")
            _verify_amount(fact.amount, "A buy-in", allow_zero=False)
            return replace(ledger, buy_ins=(*ledger.buy_ins, fact))
        case DropCounted():
            return _count_drop(ledger, fact)
    raise InvalidInputError(f"{type(fact).__name__} is not a custody fact.", code="unknown_fact")


def carry_over(closer: Closer) -> Opener:
    """The next shift's opener when no new count is entered: the closer, marked as carried."""
    return Opener(
        chips=closer.chips, dealer=closer.dealer, pit_boss=closer.pit_boss, carried_over=True
    )


def next_opener(previous_closer: Closer | None, new_count: Opener | None = None) -> Opener:
    """A new count wins; otherwise the last shift's closer carries over."""
    if new_count is not None:
        return new_count
    if previous_closer is None:
        raise NotAllowedNowError(
            "There is no previous closer to carry over: count the chips to open the table.",
            code="no_opening_count",
        )
    return carry_over(previous_closer)


def chips_total(chips: Mapping[int, int]) -> int:
    return sum(denomination * count for denomination, count in chips.items())


def chips_from_amounts(amounts: Mapping[int, int], denominations: Iterable[int]) -> dict[int, int]:
    """Turn a request written as amounts per denomination into chip counts."""
    allowed = tuple(sorted(denominations))
    counts = {}
    for denomination, amount in amounts.items():
        _verify_denomination(denomination, allowed)
        _verify_whole(amount, f"The amount in chips of {denomination}")
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
        _verify_denomination(denomination, denominations)
        _verify_whole(count, f"The count of chips of {denomination}")
        if count < 0:
            raise InvalidInputError(
                f"The count of chips of {denomination} cannot be negative ({count}).",
                code="negative_amount",
            )


def _open(ledger: CustodyLedger, opener: Opener) -> CustodyLedger:
    if ledger.opener is not None:
        raise NotAllowedNowError(
            "This table already has an opener for the shift.", code="second_opener"
        )
    verify_chips(opener.chips, ledger.denominations)
    _verify_signers((opener.dealer, opener.pit_boss), "the opener")
    return replace(ledger, opener=opener)


def _close(ledger: CustodyLedger, closer: Closer) -> CustodyLedger:
    if ledger.opener is None:
        raise NotAllowedNowError(
            "The table cannot be closed: no opener was entered for this shift.",
            code="closer_without_opener",
        )
    if ledger.closer is not None:
        raise NotAllowedNowError(
            "This table already has a closer for the shift.", code="second_closer"
        )
    verify_chips(closer.chips, ledger.denominations)
    _verify_signers((closer.dealer, closer.pit_boss), "the closer")
    return replace(ledger, closer=closer)


def _record_slip(ledger: CustodyLedger, slip: Fill | Credit) -> CustodyLedger:
    slip_type = _slip_type(slip)
    _verify_table_open(ledger, f"take a {slip_type}")
    _verify_slip_number(ledger, slip_type, slip.slip_number)
    verify_chips(slip.chips, ledger.denominations)
    if chips_total(slip.chips) == 0:
        raise InvalidInputError(f"A {slip_type} slip must move some chips.", code="empty_slip")
    cashier = slip.issued_by if isinstance(slip, Fill) else slip.received_by
    _verify_signers((slip.requested_by, cashier, slip.confirmed_by), f"{slip_type} slip")
    if isinstance(slip, Fill):
        return replace(ledger, fills=(*ledger.fills, slip))
    return replace(ledger, credits=(*ledger.credits, slip))


def _void_slip(ledger: CustodyLedger, void: SlipVoided) -> CustodyLedger:
    recorded = ledger.fills if void.slip_type == "fill" else ledger.credits
    if void.slip_type not in SLIP_TYPES or all(
        slip.slip_number != void.slip_number for slip in recorded
    ):
        raise InvalidInputError(
            f"There is no {void.slip_type} slip number {void.slip_number} at this table.",
            code="unknown_slip",
        )
    if ledger.void_of(void.slip_type, void.slip_number) is not None:
        raise NotAllowedNowError(
            f"{void.slip_type.capitalize()} slip {void.slip_number} is already void.",
            code="slip_already_voided",
        )
    _verify_signers((void.requested_by,), "the void")
    _verify_signers((void.approved_by,), "the void")
    if void.requested_by == void.approved_by:
        raise NotAllowedNowError(
            "A void must be approved by someone other than the person who asked for it.",
            code="approver_is_requester",
        )
    return replace(ledger, voids=(*ledger.voids, void))


def _count_drop(ledger: CustodyLedger, drop: DropCounted) -> CustodyLedger:
    if ledger.drop is not None:
        raise NotAllowedNowError(
            "The drop of this table and shift was already counted; the count is final.",
            code="drop_already_counted",
        )
    if ledger.opener is None:
        raise NotAllowedNowError(
            "There is no drop to count: the table was not opened this shift.",
            code="table_not_open",
        )
    _verify_amount(drop.amount, "The counted drop", allow_zero=True)
    _verify_signers((drop.counted_by,), "the drop count")
    return replace(ledger, drop=drop)


def _verify_table_open(ledger: CustodyLedger, action: str) -> None:
    if ledger.opener is None:
        raise NotAllowedNowError(
            f"Cannot {action}: the table has no opener yet.", code="table_not_open"
        )
    if ledger.closer is not None:
        raise NotAllowedNowError(f"Cannot {action}: the table is closed.", code="table_closed")


def _verify_slip_number(ledger: CustodyLedger, slip_type: SlipType, number: int) -> None:
    series = ledger.slip_series[slip_type] if ledger.slip_series is not None else None
    if not _is_whole(number) or number <= 0 or (series is not None and number not in series):
        raise InvalidInputError(
            f"{slip_type.capitalize()} slip number {number} is not one the cage issued.",
            code="slip_number_out_of_series",
        )
    recorded = ledger.fills if slip_type == "fill" else ledger.credits
    if any(slip.slip_number == number for slip in recorded):
        raise NotAllowedNowError(
            f"{slip_type.capitalize()} slip number {number} is already used at this table.",
            code="slip_number_reused",
        )


def _verify_signers(names: tuple[str, ...], what: str) -> None:
    if any(not isinstance(name, str) or not name.strip() for name in names):
        raise InvalidInputError(f"Every signature on {what} is required.", code="missing_signature")
    if len(set(names)) != len(names):
        raise InvalidInputError(
            f"The people signing {what} must be different people.", code="signers_not_distinct"
        )


def _verify_amount(amount: int, what: str, *, allow_zero: bool) -> None:
    if not _is_whole(amount):
        raise InvalidInputError(
            f"{what} must be a whole number of units ({amount!r}).", code="invalid_amount"
        )
    if amount < 0:
        raise InvalidInputError(f"{what} cannot be negative ({amount}).", code="negative_amount")
    if amount == 0 and not allow_zero:
        raise InvalidInputError(f"{what} must be more than zero.", code="invalid_amount")


def _verify_denomination(denomination: int, denominations: tuple[int, ...]) -> None:
    if not _is_whole(denomination) or denomination not in denominations:
        listed = ", ".join(str(value) for value in denominations)
        raise InvalidInputError(
            f"{denomination!r} is not a chip of this table (chips: {listed}).",
            code="not_denominated",
        )


def _verify_whole(count: int, what: str) -> None:
    if not _is_whole(count):
        raise InvalidInputError(
            f"{what} must be a whole number of chips ({count!r}).", code="not_denominated"
        )


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _slip_type(slip: Fill | Credit) -> SlipType:
    return "fill" if isinstance(slip, Fill) else "credit"
