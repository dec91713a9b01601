"""Fill and credit slips of one table and shift: a slip's life in three signed steps.

The pit boss requests it (the number is taken from the series at that moment, amounts by
denomination); a cashier issues the chips of a fill or receives those of a credit; the dealer of
the table confirms it at the table. Only a confirmed slip moves the table's chips. A void keeps
the number, marks the slip VOID at whatever step it had reached, and ends its life.

The facts of the steps are ``SlipRequested``, ``SlipCageSigned``, ``SlipConfirmed`` and
``SlipVoided``. A ``Fill`` or ``Credit`` is a confirmed slip with its three signers; the log may
also hold one written whole (before the steps existed), which is read as such.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal

from tables.engine.custody.chips import (
    chips_total,
    frozen_chips,
    same_chips,
    verify_chips,
    verify_signers,
)
from tables.engine.errors import InvalidInputError, NotAllowedNowError

SlipType = Literal["fill", "credit"]
SLIP_TYPES: tuple[SlipType, ...] = ("fill", "credit")
REQUESTED = "requested"


def cage_step(slip_type: str) -> str:
    """What the cashier does with a slip: issues a fill's chips, receives a credit's."""
    return "issued" if slip_type == "fill" else "received"


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
        object.__setattr__(self, "chips", frozen_chips(self.chips))


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
        object.__setattr__(self, "chips", frozen_chips(self.chips))


@dataclass(frozen=True)
class SlipRequested:
    """The pit asks for a fill or a credit; the slip takes the next number of its series."""

    slip_type: SlipType
    slip_number: int
    chips: Mapping[int, int]
    requested_by: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "chips", frozen_chips(self.chips))


@dataclass(frozen=True)
class SlipCageSigned:
    """A cashier issued the chips of a fill, or received those of a credit, as requested."""

    slip_type: SlipType
    slip_number: int
    chips: Mapping[int, int]
    cashier: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "chips", frozen_chips(self.chips))


@dataclass(frozen=True)
class SlipConfirmed:
    """The table's dealer confirms the chips at the table; from now on the slip counts."""

    slip_type: SlipType
    slip_number: int
    chips: Mapping[int, int]
    confirmed_by: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "chips", frozen_chips(self.chips))


@dataclass(frozen=True)
class SlipVoided:
    """A fill or credit slip that is void: it keeps its number and counts for nothing."""

    slip_type: SlipType
    slip_number: int
    reason: str
    requested_by: str
    approved_by: str


@dataclass(frozen=True)
class PendingSlip:
    """A slip requested and not confirmed yet: outstanding unless it is void."""

    slip_type: SlipType
    slip_number: int
    chips: Mapping[int, int]
    requested_by: str
    cashier: str | None = None

    @property
    def stage(self) -> str:
        return REQUESTED if self.cashier is None else cage_step(self.slip_type)

    @property
    def total(self) -> int:
        return chips_total(self.chips)


SlipFact = Fill | Credit | SlipRequested | SlipCageSigned | SlipConfirmed | SlipVoided


@dataclass(frozen=True)
class SlipBook:
    """Every slip of one table and shift, at the step it has reached."""

    fills: tuple[Fill, ...] = ()
    credits: tuple[Credit, ...] = ()
    pending: tuple[PendingSlip, ...] = ()
    voids: tuple[SlipVoided, ...] = ()

    def void_of(self, slip_type: str, slip_number: int) -> SlipVoided | None:
        for void in self.voids:
            if void.slip_type == slip_type and void.slip_number == slip_number:
                return void
        return None

    def confirmed(self, slip_type: str) -> tuple[Fill | Credit, ...]:
        return self.fills if slip_type == "fill" else self.credits

    def pending_slip(self, slip_type: str, slip_number: int) -> PendingSlip | None:
        for slip in self.pending:
            if slip.slip_type == slip_type and slip.slip_number == slip_number:
                return slip
        return None

    def knows(self, slip_type: str, slip_number: int) -> bool:
        return self.pending_slip(slip_type, slip_number) is not None or any(
            slip.slip_number == slip_number for slip in self.confirmed(slip_type)
        )

    def outstanding(self, slip_type: str) -> tuple[PendingSlip, ...]:
        """Requested and not confirmed, and not void: the cage or the table still owes a step."""
        return tuple(
            slip
            for slip in self.pending
            if slip.slip_type == slip_type and self.void_of(slip_type, slip.slip_number) is None
        )


def slip_type_of(slip: Fill | Credit) -> SlipType:
    return "fill" if isinstance(slip, Fill) else "credit"


def request_slip(book: SlipBook, fact: SlipRequested, denominations: tuple[int, ...]) -> SlipBook:
    """The number's place in the series is checked by the ledger; here, the slip itself."""
    _verify_type(fact.slip_type)
    verify_slip_chips(fact.chips, denominations, fact.slip_type)
    verify_signers((fact.requested_by,), f"the {fact.slip_type} request")
    pending = PendingSlip(fact.slip_type, fact.slip_number, fact.chips, fact.requested_by)
    return replace(book, pending=(*book.pending, pending))


def cage_sign(book: SlipBook, fact: SlipCageSigned) -> SlipBook:
    slip = _live_pending(book, fact.slip_type, fact.slip_number)
    if slip.cashier is not None:
        raise _out_of_order(slip, f"was already {slip.stage} by {slip.cashier}")
    _verify_as_requested(slip, fact.chips, cage_step(slip.slip_type))
    verify_signers((slip.requested_by, fact.cashier), f"{slip.slip_type} slip")
    signed = replace(slip, cashier=fact.cashier)
    return replace(book, pending=tuple(signed if p is slip else p for p in book.pending))


def confirm_slip(book: SlipBook, fact: SlipConfirmed) -> SlipBook:
    slip = _live_pending(book, fact.slip_type, fact.slip_number)
    if slip.cashier is None:
        raise _out_of_order(slip, f"must be {cage_step(slip.slip_type)} at the cage first")
    _verify_as_requested(slip, fact.chips, "confirmed")
    signers = (slip.requested_by, slip.cashier, fact.confirmed_by)
    verify_signers(signers, f"{slip.slip_type} slip")
    pending = tuple(p for p in book.pending if p is not slip)
    if slip.slip_type == "fill":
        return replace(
            book, pending=pending, fills=(*book.fills, Fill(slip.slip_number, slip.chips, *signers))
        )
    credit = Credit(slip.slip_number, slip.chips, *signers)
    return replace(book, pending=pending, credits=(*book.credits, credit))


def record_whole(book: SlipBook, slip: Fill | Credit, denominations: tuple[int, ...]) -> SlipBook:
    """A slip written whole, with its three signers (the log before the three steps)."""
    slip_type = slip_type_of(slip)
    verify_slip_chips(slip.chips, denominations, slip_type)
    cashier = slip.issued_by if isinstance(slip, Fill) else slip.received_by
    verify_signers((slip.requested_by, cashier, slip.confirmed_by), f"{slip_type} slip")
    if isinstance(slip, Fill):
        return replace(book, fills=(*book.fills, slip))
    return replace(book, credits=(*book.credits, slip))


def void_slip(book: SlipBook, void: SlipVoided) -> SlipBook:
    """A void at any step, even once confirmed (an approved correction): four eyes always."""
    if void.slip_type not in SLIP_TYPES or not book.knows(void.slip_type, void.slip_number):
        raise _unknown(void.slip_type, void.slip_number)
    if book.void_of(void.slip_type, void.slip_number) is not None:
        raise _already_void(void.slip_type, void.slip_number)
    verify_signers((void.requested_by,), "the void")
    verify_signers((void.approved_by,), "the void")
    if void.requested_by == void.approved_by:
        raise NotAllowedNowError(
            "A void must be approved by someone other than the person who asked for it.",
            code="approver_is_requester",
        )
    return replace(book, voids=(*book.voids, void))


def verify_slip_chips(chips: Mapping[int, int], denominations: tuple[int, ...], kind: str) -> None:
    verify_chips(chips, denominations)
    if chips_total(chips) == 0:
        raise InvalidInputError(f"A {kind} slip must move some chips.", code="empty_slip")


def _live_pending(book: SlipBook, slip_type: SlipType, slip_number: int) -> PendingSlip:
    _verify_type(slip_type)
    if book.void_of(slip_type, slip_number) is not None:
        raise _already_void(slip_type, slip_number)
    slip = book.pending_slip(slip_type, slip_number)
    if slip is not None:
        return slip
    if book.knows(slip_type, slip_number):
        raise NotAllowedNowError(
            f"{slip_type.capitalize()} slip {slip_number} is already confirmed at the table.",
            code="slip_out_of_order",
        )
    raise _unknown(slip_type, slip_number)


def _verify_as_requested(slip: PendingSlip, chips: Mapping[int, int], step: str) -> None:
    """The cage hands over exactly what the pit asked for; another amount is a new request."""
    if not same_chips(chips, slip.chips):
        raise NotAllowedNowError(
            f"{slip.slip_type.capitalize()} slip {slip.slip_number} asks for {slip.total}; "
            f"it can only be {step} as requested ({chips_total(chips)} differs). "
            "Void it and request a new slip for another amount.",
            code="slip_amount_differs",
        )


def _out_of_order(slip: PendingSlip, what: str) -> NotAllowedNowError:
    return NotAllowedNowError(
        f"{slip.slip_type.capitalize()} slip {slip.slip_number} {what}.",
        code="slip_out_of_order",
    )


def _unknown(slip_type: str, slip_number: int) -> InvalidInputError:
    return InvalidInputError(
        f"There is no {slip_type} slip number {slip_number} at this table.", code="unknown_slip"
    )


def _already_void(slip_type: str, slip_number: int) -> NotAllowedNowError:
    return NotAllowedNowError(
        f"{slip_type.capitalize()} slip {slip_number} is void; it cannot be used any more.",
        code="slip_already_voided",
    )


def _verify_type(slip_type: str) -> None:
    if slip_type not in SLIP_TYPES:
        raise InvalidInputError("A slip is a fill or a credit.", code="unknown_slip_type")
