"""What the card feed of a table allows the tablet to do.

When a card-reading shoe is feeding a table, the tablet may not also enter cards, or one
physical card would be recorded twice. When the shoe's feed is broken (a card it could not
read, events missing from its sequence), the round is held until a pit boss resolves it.

The devices app registers how to tell; the tables app needs to know nothing about shoes.
"""

from __future__ import annotations

from collections.abc import Callable

FeedCheck = Callable[[int], bool]
_checks: list[FeedCheck] = []


def register_feed_check(check: FeedCheck) -> None:
    if check not in _checks:
        _checks.append(check)


def device_feeds_table(table_id: int) -> bool:
    return any(check(table_id) for check in _checks)


HoldCheck = Callable[[int], str | None]
_hold_checks: list[HoldCheck] = []


def register_hold_check(check: HoldCheck) -> None:
    if check not in _hold_checks:
        _hold_checks.append(check)


def table_hold_reason(table_id: int) -> str | None:
    """Why the table's round is held, or None."""
    for check in _hold_checks:
        reason = check(table_id)
        if reason:
            return reason
    return None
