"""The buttons of the tablet: the commands this user may send now, each with its endpoint.

This is the one place the pages ask "what may this caller do now". Today it reads the live
view's own list of legal commands and the table's access check; the floor's policy takes its
place here, and nowhere else, once it lists the commands a user may send.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext as _
from rest_framework.exceptions import PermissionDenied

from tables import games, roles
from tables.api.access import check_can_act_at
from tables.card_feeds import device_feeds_table
from tables.models import Table
from tables.pages import labels

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


def _siete_legal(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [dict(entry) for entry in view.get("legal") or []]


def _stud_legal(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The same list for Stud, from what its live view says is due now."""
    phase = view.get("phase")
    if phase in ("idle", "complete", "voided"):
        return [{"type": "start_hand"}]
    if view.get("held"):
        return []
    due = view.get("card_due")
    if due is not None:
        entries = [{"type": "record_card", "seat": due.get("seat"), "face": due.get("face")}]
        return entries + ([{"type": "burn"}] if due.get("burn_allowed") else [])
    to_act = view.get("to_act")
    if to_act is not None:
        return [
            {"type": option["action"], "seat": to_act, "amount": option.get("amount")}
            for option in view.get("legal_actions") or []
        ]
    if view.get("next_to_show") is not None:
        seat = view["next_to_show"]
        muck = [] if seat in (view.get("must_show") or []) else [{"type": "muck", "seat": seat}]
        return [{"type": "show", "seat": seat}, *muck]
    if view.get("result") is None:
        return [{"type": "award_pots"}]
    return []


LEGAL_LISTS: dict[str, Callable[[dict[str, Any]], list[dict[str, Any]]]] = {
    "siete_y_medio": _siete_legal,
    "seven_card_stud": _stud_legal,
}


def legal_for_view(view: dict[str, Any]) -> list[dict[str, Any]]:
    lister = LEGAL_LISTS.get(str(view.get("game")))
    return lister(view) if lister is not None else []


def may_act(user: AbstractBaseUser | AnonymousUser, table: Table) -> bool:
    """The access check, asked once per table for the request's user object."""
    answers: dict[int, bool] = user.__dict__.setdefault("_casino_may_act", {})
    if table.pk not in answers:
        try:
            check_can_act_at(user, table)
            answers[table.pk] = True
        except PermissionDenied:
            answers[table.pk] = False
    return answers[table.pk]


def actions_for(
    user: AbstractBaseUser | AnonymousUser,
    table: Table,
    view: dict[str, Any],
    *,
    shoe_feeds: bool | None = None,
) -> list[TabletAction]:
    """The buttons for `user` at `table` now; empty for a user who may not act here.

    `shoe_feeds` spares asking the card feed again when the caller already did."""
    if not may_act(user, table):
        return []
    binding = games.binding_for(table.game)
    is_pit_boss = roles.has_role(user, roles.PIT_BOSS)
    if shoe_feeds is None:
        shoe_feeds = device_feeds_table(table.pk)
    actions = []
    for entry in legal_for_view(view):
        command = str(entry.pop("type"))
        if command in binding.approval_commands or command in NOT_BUTTONS:
            continue  # corrections go through the pit boss, not a button
        if command in binding.pit_boss_commands and not is_pit_boss:
            continue
        if command in CARD_COMMANDS and shoe_feeds:
            continue  # the shoe deals: nothing to enter
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
