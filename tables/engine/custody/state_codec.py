"""The stored form of a shift's custody state (see tables.engine.state_codec): what a
verified checkpoint keeps of the custody fold, so the next audit need not fold it again."""

from __future__ import annotations

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
