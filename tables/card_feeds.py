"""What the card feed of a table allows the tablet to do.

When a card-reading shoe is feeding a table, the tablet may not also enter cards, or one
physical card would be recorded twice. When the shoe's feed is broken (a card it could not
read, events missing from its sequence), the round is held until a pit boss resolves it.

The devices app registers how to tell; the tables app needs to know nothing about shoes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

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


StatusCheck = Callable[[int], tuple[bool, str | None]]
_status_checks: list[StatusCheck] = []


def register_status_check(check: StatusCheck) -> None:
    """A check that answers both questions in one read (the policy asks on every command)."""
    if check not in _status_checks:
        _status_checks.append(check)


def table_feed_status(table_id: int) -> tuple[bool, str | None]:
    """Whether a shoe feeds the table, and why its round is held (or None), read together."""
    if not _status_checks:
        return device_feeds_table(table_id), table_hold_reason(table_id)
    return combined_status([check(table_id) for check in _status_checks])


@dataclass(frozen=True)
class StatusStatement:
    """The feed status as one SQL statement, so the table lock can send it with the lock in
    one round trip: `sql` with `params(table_id)`, and `decode` of its one row."""

    sql: str
    params: Callable[[int], Sequence[Any]]
    decode: Callable[[Sequence[Any]], tuple[bool, str | None]]


_status_statements: list[StatusStatement] = []


def register_status_statement(statement: StatusStatement) -> None:
    """The statement form of a registered status check (the same answer, asked in SQL)."""
    if statement not in _status_statements:
        _status_statements.append(statement)


def status_statements() -> list[StatusStatement]:
    """The statements that answer `table_feed_status` together, or none when some status
    check has no statement form (then the check itself is asked)."""
    if len(_status_statements) != len(_status_checks):
        return []
    return list(_status_statements)


def combined_status(answers: Sequence[tuple[bool, str | None]]) -> tuple[bool, str | None]:
    feeds, reason = False, None
    for check_feeds, check_reason in answers:
        feeds = feeds or check_feeds
        reason = reason or check_reason
    return feeds, reason
