"""Chip custody, folded like a game: the facts the pit, the cage and the count record at a
table (openers and closers and the counts behind them, fill and credit slips and their steps,
voids, buy-ins, the counted drop) as typed frozen facts, one codec to and from the log's JSON
payloads (`codec`), a `CustodyState` and `fold(state, fact) -> state` that refuses what the
custody rules do not allow with a stable code (`state`, `slips`, `chips`), and the cage's own
figures for a shift (`cage`). Pure: no framework reaches it; the services adapt it.
"""

from tables.engine.custody import codec
from tables.engine.custody.cage import CageTotals, next_cage_figures
from tables.engine.custody.state import (
    SLIP_TYPES,
    BuyIn,
    ChipsCounted,
    Closer,
    Credit,
    CustodyFact,
    CustodyState,
    DropCounted,
    Fill,
    Opener,
    PendingSlip,
    SlipCageSigned,
    SlipConfirmed,
    SlipRequested,
    SlipStatus,
    SlipType,
    SlipVoided,
    carry_over,
    chips_from_amounts,
    chips_total,
    fold,
    fold_all,
    new_state,
    next_opener,
    slip_status,
    slip_statuses,
    verify_chips,
)

__all__ = [
    "SLIP_TYPES",
    "BuyIn",
    "CageTotals",
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
    "codec",
    "fold",
    "fold_all",
    "new_state",
    "next_cage_figures",
    "next_opener",
    "slip_status",
    "slip_statuses",
    "verify_chips",
]
