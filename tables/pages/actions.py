"""The buttons of the tablet: the commands this user may send now, each with its endpoint.

This is the one place the pages ask "what may this caller do now": the game's binding lists
what the rules take now (from the live view), and the floor's policy (`tables.policy`) says
which of those this user may send here, so a button exists exactly when the API would accept.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext as _

from tables import games, policy
from tables.models import Table
from tables.pages import labels

ROUND_OPEN = "round.open"  # the policy's name for POST .../rounds
CARD_COMMANDS = frozenset({"record_card", "burn"})
# Commands the tablet offers elsewhere (settings, shoe handling) or never (tests' hooks).
NOT_BUTTONS = frozenset({"update_settings", "cut_card", "clock_expired", "ask_to_see"})
# What each command needs from the dealer before it can be sent.
ASKS_FOR_CARD = frozenset(
    {"reveal", "reveal_bank", "identify_card", "declare_bust", "expose_bank_card"}
)
ASKS_FOR_AMOUNT = frozenset({"place_wager", "change_wager", "bet", "raise", "complete"})
# A face-down card may be entered unseen (the tablet sends no card).
CARD_OPTIONAL = frozenset({"record_card", "reveal", "reveal_bank", "declare_bust", "burn"})


@dataclass(frozen=True)
class TabletAction:
    command: str
    label: str
    data: dict[str, Any] = field(default_factory=dict)
    asks: str | None = None  # "card" or "amount": what the tablet adds before sending
    card_optional: bool = False
    endpoint: str = "commands"  # relative to /api/tables/<id>/
    style: str = "primary"
    box: int | None = None  # the box or seat it belongs to, to draw it there

    @property
    def optional_label(self) -> str:
        """What the picker's no-card button says: an unseen card, or one already known."""
        if self.command in CARD_COMMANDS:
            return str(_("Face-down card, not seen"))
        return str(_("The card is already known"))

    @property
    def body_json(self) -> str:
        return json.dumps(self.body, separators=(",", ":"))

    @property
    def body(self) -> dict[str, Any]:
        if self.endpoint != "commands":
            return {}
        return {"type": self.command, "data": dict(self.data)}


def actions_for(
    user: AbstractBaseUser | AnonymousUser,
    table: Table,
    view: dict[str, Any],
    may: frozenset[str] | set[str] | None = None,
) -> list[TabletAction]:
    """The buttons for `user` at `table` now; empty for a user who may not act here.
    `may` is the policy's answer for this user here, when the caller has asked it already."""
    binding = games.binding_for(table.game)
    # The policy leaves out what this user may not send: another table's commands, the pit
    # boss's, approvals, and the cards while the shoe deals them.
    if may is None:
        may = set(policy.allowed(user, table))
    actions = []
    for entry in binding.legal_entries(view):
        command = str(entry.pop("type"))
        # A command the service issues itself (Stud's hand start) is sent as the round's
        # opening, so the policy is asked about that.
        asked = ROUND_OPEN if command in binding.service_commands else command
        if asked not in may or command in NOT_BUTTONS:
            continue
        if command == "record_payout":
            entry["amount"] = _net_of(view, entry.get("box"))
        actions.append(_action(command, entry, binding.service_commands))
    return actions


def _net_of(view: dict[str, Any], box: Any) -> int | None:
    """The amount to pay (or collect) that settlement worked out for the box."""
    for result in view.get("results") or []:
        if result.get("box") == box:
            return int(result["net"])
    return None


def _action(command: str, entry: dict[str, Any], service_commands: frozenset[str]) -> TabletAction:
    place = entry.get("box", entry.get("seat"))
    label = labels.command_label(command, entry)
    if command in service_commands:
        return TabletAction(command, label, endpoint="rounds")
    kept = ("seat", "face_down") if command in CARD_COMMANDS else ("box", "seat", "face_down")
    data = {k: v for k, v in entry.items() if k in kept and v is not None}
    if command in ASKS_FOR_AMOUNT and entry.get("amount") is None:
        return TabletAction(command, label, data, asks="amount", box=place)
    if entry.get("amount") is not None:
        data["amount"] = entry["amount"]
    if command in ASKS_FOR_CARD or command in CARD_COMMANDS:
        return TabletAction(
            command, label, data, asks="card", card_optional=command in CARD_OPTIONAL, box=place
        )
    style = "danger" if command in ("fold", "declare_bust", "muck") else "primary"
    return TabletAction(command, label, data, style=style, box=place)
