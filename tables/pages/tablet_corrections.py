"""The dealer's own correction requests on the tablet: the forms to file one, and his list.

A form is offered per correction the game's binding declares (its `correction_fields`), only
when the policy lets this caller ask for corrections here. The tablet sends it to the API's
correction request (`POST /api/tables/<id>/corrections`: the same service, the same policy
check under the table lock); the pit boss's decision is a fact on the table's log, so the
list below is re-read with the table's live push.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext_lazy

from tables import games
from tables.models import CorrectionRequest, Table

CORRECTION_REQUEST = "correction.request"
LISTED = 6

CORRECTION_LABELS = {
    "void_round": gettext_lazy("Void the round"),
    "void_box": gettext_lazy("Void a box"),
    "correct_payout": gettext_lazy("Correct a payout"),
    "move_card": gettext_lazy("Move a card to another box"),
    "correct_held_card": gettext_lazy("Correct the held card"),
    "void_hand": gettext_lazy("Void the hand"),
    "kill_hand": gettext_lazy("Kill a seat's hand"),
}
FIELD_LABELS = {
    "box": gettext_lazy("Box"),
    "seat": gettext_lazy("Seat"),
    "from_box": gettext_lazy("From box"),
    "to_box": gettext_lazy("To box"),
    "amount": gettext_lazy("Amount really paid"),
    "card": gettext_lazy("The true card"),
}
PLACE_FIELDS = frozenset({"box", "seat", "from_box", "to_box"})
# What a request's line repeats of its data: never a card (the true card of a held round may
# be a face-down one).
SHOWN_FIELDS = ("box", "seat", "from_box", "to_box", "amount")
STATUS_LABELS: dict[str, Any] = {
    CorrectionRequest.Status.PENDING: gettext_lazy("waiting for the pit boss"),
    CorrectionRequest.Status.APPROVED: gettext_lazy("APPROVED"),
    CorrectionRequest.Status.REFUSED: gettext_lazy("REFUSED"),
}


@dataclass(frozen=True)
class CorrectionForm:
    command: str
    label: str
    places: tuple[str, ...]  # the place fields, each picked from the table's places
    asks_amount: bool
    asks_card: bool

    def place_fields(self) -> list[dict[str, str]]:
        return [{"name": name, "label": str(FIELD_LABELS[name])} for name in self.places]


def correction_forms(table: Table, may: frozenset[str] | set[str]) -> list[CorrectionForm]:
    """The corrections this caller may ask for at `table`, one form each."""
    if CORRECTION_REQUEST not in may:
        return []
    binding = games.binding_for(table.game)
    forms = []
    for command, fields in binding.correction_fields:
        forms.append(
            CorrectionForm(
                command=command,
                label=str(CORRECTION_LABELS.get(command, command.replace("_", " "))),
                places=tuple(name for name in fields if name in PLACE_FIELDS),
                asks_amount="amount" in fields,
                asks_card="card" in fields,
            )
        )
    return forms


def carries_reason(table: Table) -> list[str]:
    """The corrections whose command carries the request's reason too (a void's reason)."""
    binding = games.binding_for(table.game)
    return [command for command, fields in binding.correction_fields if "reason" in fields]


@dataclass(frozen=True)
class OwnRequest:
    id: int
    label: str
    details: str
    round: int | None
    reason: str
    status: str
    status_label: str
    decided_by: str | None
    decision_note: str


def own_requests(user: AbstractBaseUser | AnonymousUser, table: Table) -> list[OwnRequest]:
    """The caller's latest requests at `table` with their outcome, newest first."""
    if not getattr(user, "is_authenticated", False):
        return []
    rows = (
        CorrectionRequest.objects.filter(table=table, requested_by_id=user.pk)
        .select_related("decided_by", "round")
        .order_by("-requested_at", "-pk")[:LISTED]
    )
    return [_own(row) for row in rows]


def _own(row: CorrectionRequest) -> OwnRequest:
    command: dict[str, Any] = row.command or {}
    kind = str(command.get("type", ""))
    data = command.get("data") or {}
    details = ", ".join(
        f"{FIELD_LABELS[name]} {data[name]}" for name in SHOWN_FIELDS if data.get(name) is not None
    )
    return OwnRequest(
        id=row.pk,
        label=str(CORRECTION_LABELS.get(kind, kind.replace("_", " "))),
        details=details,
        round=row.round.number if row.round is not None else None,
        reason=row.reason,
        status=row.status,
        status_label=str(STATUS_LABELS.get(row.status, row.status)),
        decided_by=row.decided_by.get_username() if row.decided_by else None,
        decision_note=row.decision_note,
    )
