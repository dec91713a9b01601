"""Services for the floor: create, open and close tables, assign dealers, open rounds."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import IntegrityError, transaction
from django.utils import timezone

from tables import games, policy, roles
from tables.engine.errors import InvalidInputError, NotAllowedNowError
from tables.models import DealerAssignment, Round, Seat, Table, TableEvent
from tables.services.append import NewFact
from tables.services.commands import (
    CommandOutcome,
    close_settled_round,
    current_round,
    lock_table,
    record,
    table_command,
)
from tables.services.custody.log import latest_event

SYSTEM = TableEvent.Source.SYSTEM
# The custody counts that open and close a table's books (written by the custody services).
CUSTODY_OPENER = "custody.opener"
CUSTODY_COUNTS = (
    CUSTODY_OPENER,
    "custody.closer",
    "custody.opener_counted",
    "custody.closer_counted",
)
TABLET = TableEvent.Source.TABLET


def table_create(
    *,
    name: str,
    game: str,
    seat_count: int,
    settings: Mapping[str, Any] | None = None,
    actor: User | None = None,
) -> Table:
    """Create a table with settings validated by its game's engine; the first fact on its log."""
    policy.check(actor, "table.create", source=SYSTEM)
    binding = games.binding_for(game)
    complete_settings = binding.parse_settings(settings or {})
    with transaction.atomic():
        try:
            table = Table.objects.create(
                name=name, game=game, seat_count=seat_count, settings=complete_settings
            )
        except IntegrityError:
            raise InvalidInputError(
                f"A table named {name!r} already exists.", code="table_name_taken"
            ) from None
        Seat.objects.bulk_create(Seat(table=table, number=n) for n in range(1, seat_count + 1))
        table = lock_table(table.pk)
        payload = {"name": name, "game": game, "seat_count": seat_count}
        payload["settings"] = complete_settings
        record(table, None, [NewFact("table.created", payload)], actor, SYSTEM, None, None)
    return table


def table_set_status(*, table_id: int, status: str, actor: User | None) -> Table:
    """Open or close a table (the custody counts live in the reports app). Locks the table.

    A table whose shift was closed with a closer reopens only with a new opener (custody)."""
    with transaction.atomic():
        table = lock_table(table_id)
        command = "table.open" if status == Table.Status.OPEN else "table.close"
        policy.check(actor, command, table, source=SYSTEM)
        if status == Table.Status.OPEN and books_closed(table):
            raise NotAllowedNowError(
                "This table was closed with a closer: count its chips (an opener) to reopen it.",
                code="opener_required",
            )
        table_status_change(table, status, actor)
    return table


def table_status_change(table: Table, status: str, actor: User | None) -> None:
    """Open or close `table`, a fact on its log. The caller holds the table lock."""
    if table.status == status:
        raise NotAllowedNowError(f"The table is already {status}.", code=f"table_already_{status}")
    if status == Table.Status.CLOSED and current_round(table) is not None:
        raise NotAllowedNowError(
            "Finish or void the round in play before closing the table.", code="round_in_play"
        )
    table.status = status
    table.save(update_fields=["status"])
    record(table, None, [NewFact(f"table.{status}", {})], actor, SYSTEM, None, None)


def books_closed(table: Table) -> bool:
    """Whether the table's books wait for an opener: its last count is a closer, or a count
    its dealer has not confirmed as the opener yet. (A table that never had a count has no
    books to wait for.)"""
    last = latest_event(table, CUSTODY_COUNTS)
    return last is not None and last.type != CUSTODY_OPENER


def is_current_dealer(user: AbstractBaseUser | AnonymousUser, table: Table) -> bool:
    """Whether `user` is the dealer now assigned to `table`."""
    return policy.checks.is_assigned(user, table)


def dealer_assign(*, table_id: int, dealer: User, by: User | None) -> DealerAssignment:
    """Put a dealer on a table, ending their spell anywhere else. Locks the table."""
    now = timezone.now()
    with transaction.atomic():
        table = lock_table(table_id)
        policy.check(by, "table.assign_dealer", table, source=SYSTEM)
        if not roles.has_role(dealer, roles.DEALER):
            raise InvalidInputError(
                f"{dealer.get_username()} is not a dealer.", code="not_a_dealer", status=400
            )
        DealerAssignment.objects.filter(dealer=dealer, ended_at__isnull=True).update(ended_at=now)
        assignment = DealerAssignment.objects.create(
            dealer=dealer, table=table, assigned_by=by, started_at=now
        )
        fact = NewFact("dealer.assigned", {"dealer": dealer.get_username()})
        record(table, None, [fact], by, SYSTEM, now, None)
    return assignment


def round_open(
    *,
    table_id: int,
    actor: User | None,
    source: str = TABLET,
    occurred_at: datetime | None = None,
    idempotency_key: str | None = None,
) -> CommandOutcome:
    """Open the next round; a settled round in play is closed first. Locks the table.
    `occurred_at` is the tap's time on the tablet, kept beside the server's."""

    def opening(table: Table, facts: policy.TableFacts | None) -> Any:
        # The policy is asked about the round's opening, under the one lock table_command takes,
        # with what that lock read for it (the dealer's assignment, the feed).
        policy.check(actor, "round.open", table, source=source, facts=facts)
        return games.binding_for(table.game).open_round_command(table)

    return table_command(
        table_id=table_id,
        command_for=opening,
        actor=actor,
        source=source,
        occurred_at=occurred_at,
        idempotency_key=idempotency_key,
        checked=True,
    )


def round_close(*, table_id: int, actor: User | None) -> Round:
    """Close the settled round (its payouts recorded or not). Locks the table."""
    with transaction.atomic():
        table = lock_table(table_id)
        policy.check(actor, "round.close", table)
        round_ = current_round(table)
        if round_ is None:
            raise NotAllowedNowError("There is no round to close.", code="no_round_in_play")
        if round_.status != Round.Status.SETTLED:
            raise NotAllowedNowError(
                "Settle the round, or have it voided, before closing it.", code="round_not_settled"
            )
        close_settled_round(table, round_, actor)
        return round_
