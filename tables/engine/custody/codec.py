"""The one codec of custody facts: each fact's event type and JSON payload on a table's log.

`encode` gives the type and payload of a fact (the services add the gaming day and shift it
belongs to, so a late drop count or a void lands on the right shift whatever the clock says);
`decode` reads one back, refusing a payload that is not a fact with ``InvalidInputError`` (the
verifier reports it as a problem of the log, the services never meet one).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tables.engine.custody.state import (
    BuyIn,
    ChipsCounted,
    Closer,
    Credit,
    CustodyFact,
    DropCounted,
    Fill,
    Opener,
    SlipCageSigned,
    SlipConfirmed,
    SlipRequested,
    SlipVoided,
)
from tables.engine.errors import InvalidInputError

OPENER = "custody.opener"
CLOSER = "custody.closer"
# The pit boss's counts, each confirmed by the table's dealer as the opener or closer.
COUNTED = {False: "custody.opener_counted", True: "custody.closer_counted"}
# A slip written whole, with its three signers: the log before slips had three steps.
FILL = "custody.fill"
CREDIT = "custody.credit"
SLIP_REQUESTED = {"fill": "custody.fill_requested", "credit": "custody.credit_requested"}
SLIP_CAGE_SIGNED = {"fill": "custody.fill_issued", "credit": "custody.credit_received"}
SLIP_CONFIRMED = {"fill": "custody.fill_confirmed", "credit": "custody.credit_confirmed"}
SLIP_STEPS = (
    *SLIP_REQUESTED.values(),
    *SLIP_CAGE_SIGNED.values(),
    *SLIP_CONFIRMED.values(),
)
SLIP_VOIDED = "custody.slip_voided"
BUY_IN = "custody.buy_in"
DROP_COUNTED = "custody.drop_counted"
# Listed rather than matched by prefix, so the (table, type) index serves the lookup.
CUSTODY_TYPES = (
    *COUNTED.values(),
    OPENER,
    CLOSER,
    FILL,
    CREDIT,
    *SLIP_STEPS,
    SLIP_VOIDED,
    BUY_IN,
    DROP_COUNTED,
)
_CUSTODY_TYPE_SET = frozenset(CUSTODY_TYPES)


def chips_payload(chips: Mapping[int, int]) -> dict[str, int]:
    return {str(value): count for value, count in sorted(chips.items())}


def chips_from_payload(chips: Mapping[Any, Any]) -> dict[int, int]:
    """Denominations come as JSON keys (text); anything that is not a whole number is refused."""
    parsed = {}
    for key, count in chips.items():
        try:
            denomination = int(str(key))
        except ValueError:
            raise InvalidInputError(
                f"{key!r} is not a chip denomination.", code="not_denominated"
            ) from None
        parsed[denomination] = count
    return parsed


def encode(fact: CustodyFact) -> tuple[str, dict[str, Any]]:
    """The log's event type and payload for one custody fact (without the shift)."""
    match fact:
        case ChipsCounted():
            return COUNTED[fact.closing], {
                "chips": chips_payload(fact.chips),
                "pit_boss": fact.pit_boss,
                "carried_over": fact.carried_over,
            }
        case Opener():
            return OPENER, {
                "chips": chips_payload(fact.chips),
                "dealer": fact.dealer,
                "pit_boss": fact.pit_boss,
                "carried_over": fact.carried_over,
            }
        case Closer():
            return CLOSER, {
                "chips": chips_payload(fact.chips),
                "dealer": fact.dealer,
                "pit_boss": fact.pit_boss,
            }
        case Fill() | Credit():
            cashier = fact.issued_by if isinstance(fact, Fill) else fact.received_by
            return FILL if isinstance(fact, Fill) else CREDIT, {
                "slip_number": fact.slip_number,
                "chips": chips_payload(fact.chips),
                "requested_by": fact.requested_by,
                "cashier": cashier,
                "confirmed_by": fact.confirmed_by,
            }
        case SlipRequested():
            return SLIP_REQUESTED[fact.slip_type], {
                **_slip_key(fact),
                "chips": chips_payload(fact.chips),
                "requested_by": fact.requested_by,
            }
        case SlipCageSigned():
            return SLIP_CAGE_SIGNED[fact.slip_type], {
                **_slip_key(fact),
                "chips": chips_payload(fact.chips),
                "cashier": fact.cashier,
            }
        case SlipConfirmed():
            return SLIP_CONFIRMED[fact.slip_type], {
                **_slip_key(fact),
                "chips": chips_payload(fact.chips),
                "confirmed_by": fact.confirmed_by,
            }
        case SlipVoided():
            return SLIP_VOIDED, {
                "slip_type": fact.slip_type,
                "slip_number": fact.slip_number,
                "reason": fact.reason,
                "requested_by": fact.requested_by,
                "approved_by": fact.approved_by,
            }
        case BuyIn():
            return BUY_IN, {"amount": fact.amount}
        case DropCounted():
            return DROP_COUNTED, {"amount": fact.amount, "counted_by": fact.counted_by}
    raise TypeError(f"{type(fact).__name__} is not a custody fact")


def _slip_key(fact: SlipRequested | SlipCageSigned | SlipConfirmed) -> dict[str, Any]:
    return {"slip_type": fact.slip_type, "slip_number": fact.slip_number}


# The shift a custody event belongs to, as its payload names it: (gaming day ISO, shift name).
ShiftId = tuple[str, str]


def shift_id(data: Mapping[str, Any]) -> ShiftId:
    """The shift a custody payload names; one that names none is not a custody fact."""
    day, shift = data.get("gaming_day"), data.get("shift")
    if not isinstance(day, str) or not isinstance(shift, str):
        raise InvalidInputError(
            "A custody fact names the gaming day and shift it belongs to.", code="invalid_input"
        )
    return day, shift


def is_custody_event(event_type: str) -> bool:
    return event_type in _CUSTODY_TYPE_SET


def decode(event_type: str, data: Mapping[str, Any]) -> CustodyFact:
    """The fact a custody event's payload holds; a payload that holds none (a field missing or
    of the wrong kind) is refused, so a reader never folds a half-read fact."""
    try:
        return _decode(event_type, data)
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        raise InvalidInputError(
            f"The {event_type} payload is not a custody fact ({error!r}).", code="invalid_input"
        ) from None


def _decode(event_type: str, data: Mapping[str, Any]) -> CustodyFact:
    chips = chips_from_payload(data.get("chips", {}))
    if event_type in COUNTED.values():
        closing = event_type == COUNTED[True]
        return ChipsCounted(chips, data["pit_boss"], closing, data.get("carried_over", False))
    if event_type == OPENER:
        return Opener(chips, data["dealer"], data["pit_boss"], data.get("carried_over", False))
    if event_type == CLOSER:
        return Closer(chips, data["dealer"], data["pit_boss"])
    if event_type == FILL:
        signers = (data["requested_by"], data["cashier"], data["confirmed_by"])
        return Fill(data["slip_number"], chips, *signers)
    if event_type == CREDIT:
        signers = (data["requested_by"], data["cashier"], data["confirmed_by"])
        return Credit(data["slip_number"], chips, *signers)
    if event_type in SLIP_STEPS:
        return _slip_step(event_type, data, chips)
    if event_type == SLIP_VOIDED:
        return SlipVoided(
            data["slip_type"],
            data["slip_number"],
            data["reason"],
            data["requested_by"],
            data["approved_by"],
        )
    if event_type == BUY_IN:
        return BuyIn(data["amount"])
    if event_type == DROP_COUNTED:
        return DropCounted(data["amount"], data["counted_by"])
    raise ValueError(f"{event_type} is not a custody event")


def _slip_step(
    event_type: str, data: Mapping[str, Any], chips: dict[int, int]
) -> SlipRequested | SlipCageSigned | SlipConfirmed:
    key = (data["slip_type"], data["slip_number"])
    if event_type in SLIP_REQUESTED.values():
        return SlipRequested(*key, chips, data["requested_by"])
    if event_type in SLIP_CAGE_SIGNED.values():
        return SlipCageSigned(*key, chips, data["cashier"])
    return SlipConfirmed(*key, chips, data["confirmed_by"])
