"""The stored form of a shift's custody state (see tables.engine.state_codec): what a
verified checkpoint keeps of the custody fold, so the next audit need not fold it again."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tables.engine.custody.codec import ShiftId
from tables.engine.custody.slips import (
    Credit,
    Fill,
    PendingSlip,
    SlipBook,
    SlipVoided,
)
from tables.engine.custody.state import (
    BuyIn,
    ChipsCounted,
    Closer,
    CustodyState,
    DropCounted,
    Opener,
)
from tables.engine.state_codec import StateCodec

# Raise when a custody state field changes meaning without changing its name.
CUSTODY_VERSION = 1

CUSTODY_STATE_CODEC = StateCodec(
    engine_version=CUSTODY_VERSION,
    classes=(
        CustodyState,
        Opener,
        Closer,
        ChipsCounted,
        BuyIn,
        DropCounted,
        SlipBook,
        Fill,
        Credit,
        PendingSlip,
        SlipVoided,
    ),
)


@dataclass(frozen=True)
class OpenShifts:
    """What the custody fold keeps at a seq: the seq of the latest opener, and each shift with
    a fact since (the shift it opened, and any earlier one still receiving late facts: a
    drop counted, a slip voided), with the seq of its latest fact and its state. A shift
    left out is folded from the log if a fact of it comes later."""

    opener_seq: int
    shifts: Mapping[ShiftId, tuple[int, CustodyState]]
