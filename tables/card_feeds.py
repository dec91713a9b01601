"""Who deals a table's cards: when a card-reading shoe is feeding a table, the tablet may not
also enter cards, or one physical card would be recorded twice.

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
