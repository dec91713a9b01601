"""Misread holds: a card left the shoe unread (or read as a duplicate), so the shoe's next cards
wait. The dealer enters the true card and a pit boss, not the dealer, approves (RULES 1.5); the
entered card is dealt where the unread one went, then the cards that waited are dealt in order.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from devices import applying, feeding
from devices.models import DeviceEvent, MisreadHold
from devices.registry.alerts import raise_device_alert
from tables import policy
from tables.engine.errors import NotAllowedNowError
from tables.models import Table
from tables.policy import four_eyes
from tables.services import engine_state
from tables.services.append import NewFact
from tables.services.commands import lock_table, table_command


def open_hold(event: DeviceEvent, table: Table) -> MisreadHold:
    return MisreadHold.objects.create(
        device=event.device, table=table, device_event=event, opened_at=timezone.now()
    )


def hold_enter(*, hold_id: int, card: str, by: User) -> MisreadHold:
    """The dealer's entry of the unread card; it is dealt once a pit boss approves it."""
    with transaction.atomic():
        hold = MisreadHold.objects.select_for_update().filter(pk=hold_id).first()
        if hold is None:
            raise four_eyes.not_found("hold")
        table = lock_table(hold.table_id)
        policy.check(by, "hold.enter", table)
        if hold.resolved_at is not None:
            raise four_eyes.already_decided("hold")
        hold.card, hold.requested_by = card.strip(), by
        hold.save(update_fields=["card", "requested_by"])
        return hold


def hold_approve(*, hold_id: int, by: User) -> MisreadHold:
    hold = MisreadHold.objects.filter(pk=hold_id).select_related("requested_by").first()
    if hold is None:
        raise NotAllowedNowError("There is no such hold.", code="hold_not_found")
    if hold.requested_by is None or not hold.card:
        raise NotAllowedNowError(
            "The dealer has not entered the card yet.", code="hold_card_not_entered"
        )
    return misread_resolve(
        hold_id=hold.pk, card=hold.card, requested_by=hold.requested_by, approved_by=by
    )


def misread_resolve(
    *, hold_id: int, card: str, requested_by: User, approved_by: User
) -> MisreadHold:
    """Deal the entered card in place of the unread one, then release the cards that waited."""
    four_eyes.check_decider("hold.approve", requester=requested_by, decider=approved_by)
    hold = MisreadHold.objects.select_related("device_event", "device").filter(pk=hold_id).first()
    if hold is None:
        raise NotAllowedNowError("There is no such hold.", code="hold_not_found")
    with transaction.atomic():
        table = lock_table(hold.table_id)
        hold.refresh_from_db()
        _check_is_next(hold, table)
        event = hold.device_event
        state = engine_state.current_state(table)
        command = _entered_command(table, state, card)
        fact = NewFact(
            "device.misread_resolved",
            {
                "serial": hold.device.serial,
                "draw_index": event.draw_index,
                "requested_by": requested_by.get_username(),
                "approved_by": approved_by.get_username(),
            },
        )
        outcome = table_command(
            table_id=table.pk,
            locked=table,
            command=command,
            actor=requested_by,
            source="tablet",
            preamble=(fact,),
            approved=True,
        )
        hold.card, hold.requested_by, hold.approved_by = card, requested_by, approved_by
        hold.resolved_at = timezone.now()
        hold.save(update_fields=["card", "requested_by", "approved_by", "resolved_at"])
        event.verdict, event.reason, event.card = DeviceEvent.Verdict.ACCEPTED, "entered", card
        event.table_event = applying.card_row(outcome.events[1:])
        event.save(update_fields=["verdict", "reason", "card", "table_event"])
        release_waiting_cards(table)
    return hold


def release_waiting_cards(table: Table) -> None:
    """Deal the shoe cards that waited behind a hold, in draw order, up to the next hold. The
    caller holds the table lock."""
    waiting = DeviceEvent.objects.filter(
        table=table, verdict=DeviceEvent.Verdict.HELD, reason=applying.WAITING_FOR_MISREAD
    ).order_by("id")
    for event in waiting.select_related("device"):
        if applying.table_has_open_hold(table):
            return
        result = applying.apply_card(table, event.card, event.physical_id or None)
        event.verdict, event.reason = result.verdict, result.reason
        event.table_event = result.table_event
        event.save(update_fields=["verdict", "reason", "table_event"])
        if result.alert is not None:
            kind, message, details = result.alert
            details = {**details, "device_event": event.pk}
            raise_device_alert(
                device=event.device, table=table, kind=kind, message=message, details=details
            )
        if result.opens_hold:
            open_hold(event, table)


def _check_is_next(hold: MisreadHold, table: Table) -> None:
    if hold.resolved_at is not None:
        raise NotAllowedNowError("This hold is already resolved.", code="hold_resolved")
    first_open = (
        MisreadHold.objects.filter(table=table, resolved_at__isnull=True).order_by("id").first()
    )
    if first_open is not None and first_open.pk != hold.pk:
        raise NotAllowedNowError(
            "An earlier unread card at this table must be entered first.", code="earlier_hold_open"
        )


def _entered_command(table: Table, state: object, card: str) -> object:
    """The card as the dealer enters it: a tablet entry, refused if it cannot be dealt now."""
    try:
        return feeding.card_command(table.game, state, card, None, source="tablet")
    except ValueError as error:
        raise NotAllowedNowError(str(error), code="unknown_game") from None
