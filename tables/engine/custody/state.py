"""The chip custody of one table for one shift, as a fold over custody facts (like a game's).

Amounts are integers of the casino's money unit; a chip inventory maps each denomination (its
value in that unit) to a number of chips. The facts are what the pit, the cage and the count
record: the opener and closer counts, the steps of fill and credit slips (``slips``), slip
voids, buy-ins and the counted drop. :func:`fold` refuses a fact the custody rules do not
allow, with a stable code, and otherwise returns the new state; a state is never edited in
place. The services admit a new fact by folding it; the readers, the verifier and the rebuild
fold the log's facts with the same function.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from tables.engine.custody.chips import (
    chips_from_amounts,
    chips_total,
    frozen_chips,
    is_whole,
    verify_amount,
    verify_chips,
    verify_signers,
)
from tables.engine.custody.slips import (
    SLIP_TYPES,
    Credit,
    Fill,
    PendingSlip,
    SlipBook,
    SlipCageSigned,
    SlipConfirmed,
    SlipRequested,
    SlipType,
    SlipVoided,
    cage_sign,
    confirm_slip,
    record_whole,
    request_slip,
    slip_type_of,
    void_slip,
)
from tables.engine.errors import InvalidInputError, NotAllowedNowError

__all__ = [
    "SLIP_TYPES",
    "BuyIn",
    "ChipsCounted",
    "Closer",
    "Credit",
    "CustodyFact",
    "CustodyState",
    "DropCounted",
    "Fill",
    "Opener",
    "PendingSlip",
    "SlipCageSigned",
    "SlipConfirmed",
    "SlipRequested",
    "SlipStatus",
    "SlipType",
    "SlipVoided",
    "carry_over",
    "chips_from_amounts",
    "chips_total",
    "fold",
    "fold_all",
    "new_state",
    "next_opener",
    "slip_status",
    "slip_statuses",
    "verify_chips",
]


@dataclass(frozen=True)
class Opener:
    """The chip inventory a shift starts with, counted by the dealer and the pit boss."""

    chips: Mapping[int, int]
    dealer: str
    pit_boss: str
    carried_over: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "chips", frozen_chips(self.chips))


@dataclass(frozen=True)
class Closer:
    """The chip inventory left on the table at the end of the shift."""

    chips: Mapping[int, int]
    dealer: str
    pit_boss: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "chips", frozen_chips(self.chips))


@dataclass(frozen=True)
class ChipsCounted:
    """The pit boss's count of the tray, for an opener (or, ``closing``, a closer), waiting
    for the table's dealer to confirm it with his own signature."""

    chips: Mapping[int, int]
    pit_boss: str
    closing: bool = False
    carried_over: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "chips", frozen_chips(self.chips))


@dataclass(frozen=True)
class BuyIn:
    """Cash changed for chips at the table; the sum is the estimated drop."""

    amount: int


@dataclass(frozen=True)
class DropCounted:
    """The drop box's cash as counted by the count team; final once entered."""

    amount: int
    counted_by: str


CustodyFact = (
    ChipsCounted
    | Opener
    | Closer
    | Fill
    | Credit
    | SlipRequested
    | SlipCageSigned
    | SlipConfirmed
    | SlipVoided
    | BuyIn
    | DropCounted
)


@dataclass(frozen=True)
class CustodyState:
    """Everything known about one table's chips in one shift."""

    table: str
    denominations: tuple[int, ...]
    slip_series: Mapping[SlipType, frozenset[int]] | None = None
    opener: Opener | None = None
    closer: Closer | None = None
    # A count the dealer has not confirmed yet.
    count: ChipsCounted | None = None
    slips: SlipBook = field(default_factory=SlipBook)
    buy_ins: tuple[BuyIn, ...] = ()
    drop: DropCounted | None = None

    @property
    def is_closed(self) -> bool:
        return self.closer is not None

    @property
    def fills(self) -> tuple[Fill, ...]:
        """Confirmed fills, void ones included (``void_of`` tells)."""
        return self.slips.fills

    @property
    def credits(self) -> tuple[Credit, ...]:
        return self.slips.credits

    @property
    def pending(self) -> tuple[PendingSlip, ...]:
        """Slips requested and not confirmed, void ones included."""
        return self.slips.pending

    @property
    def voids(self) -> tuple[SlipVoided, ...]:
        return self.slips.voids

    def void_of(self, slip_type: SlipType, slip_number: int) -> SlipVoided | None:
        return self.slips.void_of(slip_type, slip_number)

    @property
    def fills_total(self) -> int:
        """Only a confirmed, live slip moves the table's chips."""
        return sum(chips_total(fill.chips) for fill in self.fills if not self._voided(fill))

    @property
    def credits_total(self) -> int:
        return sum(chips_total(credit.chips) for credit in self.credits if not self._voided(credit))

    @property
    def estimated_drop(self) -> int:
        return sum(buy_in.amount for buy_in in self.buy_ins)

    def _voided(self, slip: Fill | Credit) -> bool:
        return self.void_of(slip_type_of(slip), slip.slip_number) is not None


def new_state(
    table: str,
    denominations: Iterable[int],
    *,
    slip_series: Mapping[SlipType, Collection[int]] | None = None,
) -> CustodyState:
    """An empty ledger; ``slip_series`` (when given) holds the slip numbers the cage issued."""
    series = None
    if slip_series is not None:
        series = MappingProxyType(
            {kind: frozenset(slip_series.get(kind, ())) for kind in SLIP_TYPES}
        )
    return CustodyState(table=table, denominations=tuple(sorted(denominations)), slip_series=series)


def fold_all(state: CustodyState, facts: Iterable[CustodyFact]) -> CustodyState:
    for fact in facts:
        state = fold(state, fact)
    return state


def fold(ledger: CustodyState, fact: CustodyFact) -> CustodyState:
    """The state with ``fact`` recorded, or a :class:`RuleError` saying why it cannot be: the
    one check of every custody rule, for the services admitting a fact and for the replay."""
    match fact:
        case ChipsCounted():
            return _count_chips(ledger, fact)
        case Opener():
            return _open(ledger, fact)
        case Closer():
            return _close(ledger, fact)
        case SlipRequested():
            _verify_table_open(ledger, f"request a {fact.slip_type}")
            _verify_slip_number(ledger, fact.slip_type, fact.slip_number)
            return _with_slips(ledger, request_slip(ledger.slips, fact, ledger.denominations))
        case SlipCageSigned():
            return _with_slips(ledger, cage_sign(ledger.slips, fact), still_open=True)
        case SlipConfirmed():
            return _with_slips(ledger, confirm_slip(ledger.slips, fact), still_open=True)
        case Fill() | Credit():
            slip_type = slip_type_of(fact)
            _verify_table_open(ledger, f"take a {slip_type}")
            _verify_slip_number(ledger, slip_type, fact.slip_number)
            return _with_slips(ledger, record_whole(ledger.slips, fact, ledger.denominations))
        case SlipVoided():
            return _with_slips(ledger, void_slip(ledger.slips, fact))
        case BuyIn():
            _verify_table_open(ledger, "record a buy-in")
            verify_amount(fact.amount, "A buy-in", allow_zero=False)
            return replace(ledger, buy_ins=(*ledger.buy_ins, fact))
        case DropCounted():
            return _count_drop(ledger, fact)
    raise InvalidInputError(f"{type(fact).__name__} is not a custody fact.", code="unknown_fact")


@dataclass(frozen=True)
class SlipStatus:
    """Where one slip stands: the last step it reached and whether it is void (the `Slip`
    projection's own fields)."""

    stage: str
    voided: bool


CONFIRMED = "confirmed"


def slip_status(state: CustodyState, slip_type: SlipType, slip_number: int) -> SlipStatus | None:
    """The slip's status in ``state``; None when the shift knows no such slip."""
    pending = state.slips.pending_slip(slip_type, slip_number)
    voided = state.void_of(slip_type, slip_number) is not None
    if pending is not None:
        return SlipStatus(pending.stage, voided)
    if any(slip.slip_number == slip_number for slip in state.slips.confirmed(slip_type)):
        return SlipStatus(CONFIRMED, voided)
    return None


def slip_statuses(state: CustodyState) -> dict[tuple[SlipType, int], SlipStatus]:
    """Every slip of the shift, by type and number, at the step it reached."""
    keys = [(slip.slip_type, slip.slip_number) for slip in state.pending]
    keys += [("fill", slip.slip_number) for slip in state.fills]
    keys += [("credit", slip.slip_number) for slip in state.credits]
    statuses = {}
    for slip_type, number in keys:
        status = slip_status(state, slip_type, number)
        assert status is not None  # every key came from the state itself
        statuses[slip_type, number] = status
    return statuses


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


def _with_slips(ledger: CustodyState, slips: SlipBook, *, still_open: bool = False) -> CustodyState:
    """``still_open``: the step moves chips between the cage and the table, so it must come
    before the closer counted the tray (the slip's own checks come first: they say more)."""
    if still_open and (ledger.closer is not None or _closing_counted(ledger)):
        raise NotAllowedNowError(
            "The table is closed: this slip can no longer be completed; void it.",
            code="table_closed",
        )
    return replace(ledger, slips=slips)


def _count_chips(ledger: CustodyState, count: ChipsCounted) -> CustodyState:
    """A count waits for the dealer; a recount before he confirms replaces it."""
    if count.closing:
        _verify_can_close(ledger)
    elif ledger.opener is not None:
        raise NotAllowedNowError(
            "This table already has an opener for the shift.", code="second_opener"
        )
    verify_chips(count.chips, ledger.denominations)
    verify_signers((count.pit_boss,), "the count")
    return replace(ledger, count=count)


def _verify_confirms_count(ledger: CustodyState, signed: Opener | Closer) -> None:
    """The dealer confirms exactly the pit boss's count (a log from before counts were
    confirmed holds openers and closers signed at once, with no count)."""
    count = ledger.count
    if count is None:
        return
    if count.closing != isinstance(signed, Closer) or (count.chips, count.pit_boss) != (
        signed.chips,
        signed.pit_boss,
    ):
        raise NotAllowedNowError(
            "This is not the count the pit boss made; confirm that one or ask for a recount.",
            code="count_mismatch",
        )


def _open(ledger: CustodyState, opener: Opener) -> CustodyState:
    if ledger.opener is not None:
        raise NotAllowedNowError(
            "This table already has an opener for the shift.", code="second_opener"
        )
    _verify_confirms_count(ledger, opener)
    verify_chips(opener.chips, ledger.denominations)
    verify_signers((opener.dealer, opener.pit_boss), "the opener")
    return replace(ledger, opener=opener, count=None)


def _close(ledger: CustodyState, closer: Closer) -> CustodyState:
    _verify_can_close(ledger)
    _verify_confirms_count(ledger, closer)
    verify_chips(closer.chips, ledger.denominations)
    verify_signers((closer.dealer, closer.pit_boss), "the closer")
    return replace(ledger, closer=closer, count=None)


def _verify_can_close(ledger: CustodyState) -> None:
    if ledger.opener is None:
        raise NotAllowedNowError(
            "The table cannot be closed: no opener was entered for this shift.",
            code="closer_without_opener",
        )
    if ledger.closer is not None:
        raise NotAllowedNowError(
            "This table already has a closer for the shift.", code="second_closer"
        )


def _count_drop(ledger: CustodyState, drop: DropCounted) -> CustodyState:
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
    verify_amount(drop.amount, "The counted drop", allow_zero=True)
    verify_signers((drop.counted_by,), "the drop count")
    return replace(ledger, drop=drop)


def _verify_table_open(ledger: CustodyState, action: str) -> None:
    if ledger.opener is None:
        raise NotAllowedNowError(
            f"Cannot {action}: the table has no opener yet.", code="table_not_open"
        )
    if ledger.closer is not None or _closing_counted(ledger):
        raise NotAllowedNowError(f"Cannot {action}: the table is closed.", code="table_closed")


def _closing_counted(ledger: CustodyState) -> bool:
    """The tray is counted for the closer: no chips move any more, whether confirmed or not."""
    return ledger.count is not None and ledger.count.closing


def _verify_slip_number(ledger: CustodyState, slip_type: SlipType, number: int) -> None:
    series = ledger.slip_series[slip_type] if ledger.slip_series is not None else None
    if not is_whole(number) or number <= 0 or (series is not None and number not in series):
        raise InvalidInputError(
            f"{slip_type.capitalize()} slip number {number} is not one the cage issued.",
            code="slip_number_out_of_series",
        )
    if ledger.slips.knows(slip_type, number):
        raise NotAllowedNowError(
            f"{slip_type.capitalize()} slip number {number} is already used at this table.",
            code="slip_number_reused",
        )
