"""The cage's and the pit's custody services: the opener, closer, buy-ins and the drop count
(`counts`, re-exported here), the slips' steps (`slips`) and the cage's own figures (`cage`).

Each decides with the pure custody fold (tables.engine.custody) under the table lock and
appends through the one command path (tables.services.commands.record).
"""

from tables.services.custody.counts import (
    SYSTEM,
    TABLET,
    append_custody,
    buy_in_admit,
    buy_in_record,
    count_confirm,
    custody_close,
    custody_open,
    drop_count,
    session_shift,
)

__all__ = [
    "SYSTEM",
    "TABLET",
    "append_custody",
    "buy_in_admit",
    "buy_in_record",
    "count_confirm",
    "custody_close",
    "custody_open",
    "drop_count",
    "session_shift",
]
