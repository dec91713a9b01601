"""Recording cards: dealt, community, burned, or dead when the shoe reports one out of turn."""

from __future__ import annotations

from typing import Any

from tables.engine.errors import InvalidInputError, NotAllowedNowError
from tables.engine.game import Event
from tables.engine.stud.commands import Burn, RecordCard
from tables.engine.stud.dealing import due_card, verify_burn_due, verify_card
from tables.engine.stud.state import COMMUNITY, UP, StudState


def record_card(state: StudState, command: RecordCard) -> tuple[Event, ...]:
    verify_card(state, command.card)
    try:
        due = due_card(state, command.seat)
    except NotAllowedNowError:
        if command.source != "shoe":
            raise
        # A card that left the shoe is a fact: recorded as dead, never refused (RULES 3).
        return (Event("card.dead", {**_origin(command), "card": command.card}),)
    if due.face == UP and command.card is None:
        raise InvalidInputError(
            "An up card must be entered: everyone at the table can see it.",
            code="unknown_up_card",
        )
    data = {**_origin(command), "card": command.card, "street": state.street}
    if due.seat == COMMUNITY:
        return (Event("card.community", data),)
    return (Event("card.dealt", {**data, "seat": due.seat, "face": due.face}),)


def burn(state: StudState, command: Burn) -> tuple[Event, ...]:
    verify_card(state, command.card)
    verify_burn_due(state)
    data = {**_origin(command), "card": command.card, "street": state.street}
    return (Event("card.burned", data),)


def _origin(command: Any) -> dict[str, Any]:
    return {"source": command.source, "physical_id": command.physical_id}
