"""What the tablet's table fragment is drawn from: the live view, read for this viewer."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils import timezone

from reports.shifts import floor_clock
from tables import policy, selectors
from tables.models import DealerAssignment, Table
from tables.pages import labels
from tables.pages.actions import actions_for
from tables.pages.cards import card_face, deck_for_game
from tables.pages.shoe import shoe_status
from tables.pages.tablet_corrections import carries_reason, correction_forms, own_requests
from tables.pages.tablet_custody import awaiting_dealer


def table_screen(
    user: AbstractBaseUser | AnonymousUser, table: Table, facts: policy.TableFacts | None = None
) -> dict[str, Any]:
    """`facts` are the table's feed status and assignment, when the caller read them to let
    the viewer in: the policy's answer, the shoe line and the hold banner reuse that one read,
    as the tablet's fragment is re-read after every tap and every card."""
    facts = (
        facts if facts is not None and facts.table_id == table.pk else policy.TableFacts(table.pk)
    )
    view = selectors.table_live_view(table)
    shoe_feeds = facts.shoe_feeds
    may = set(policy.allowed(user, table, facts=facts))
    actions = actions_for(user, table, view, may)
    assignment = (
        DealerAssignment.objects.filter(table=table, ended_at__isnull=True)
        .select_related("dealer")
        .first()
    )
    return {
        "table": table,
        "view": view,
        "phase_label": labels.word(labels.PHASE_LABELS, view.get("phase")),
        "actions": actions,
        "general_actions": [a for a in actions if a.box is None],
        "asks_card": any(a.asks == "card" for a in actions),
        "deck": deck_for_game(table.game),
        "dealer": assignment.dealer.get_username() if assignment else None,
        "shift": current_shift_name(),
        "held_reason": facts.hold_reason or _engine_hold(view),
        "shoe": shoe_status(table.pk),
        "shoe_feeds": shoe_feeds,
        "corrections": own_requests(user, table),
        "correction_forms": correction_forms(table, may),
        "correction_reasons": carries_reason(table),
        "awaiting": awaiting_dealer(table, may),
        "seat_numbers": range(1, table.seat_count + 1),
        "seq": table.head_seq,
        "places": _places(view, actions),
        "bank": _bank(view),
        "payouts": _payouts(view),
        "pots": view.get("pots") or [],
        "showdown_hands": _showdown_hands(view),
        "time_zone": settings.CASINO_TIME_ZONE,
    }


def _engine_hold(view: dict[str, Any]) -> str | None:
    held = view.get("held")
    if not held:
        return None
    return str(held).replace("_", " ") if isinstance(held, str) else "held"


def current_shift_name() -> str:
    """`2026-12-01 · swing`: the gaming day and shift, by the floor's clock."""
    key = floor_clock().shift_of(timezone.now())
    return f"{key.gaming_day.isoformat()} · {key.shift}"


def _cards(entries: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    return [card_face(entry) for entry in entries or []]


def _places(view: dict[str, Any], actions: list[Any]) -> list[dict[str, Any]]:
    """The boxes (Siete) or seats (Stud) with their own buttons."""
    turn = view.get("turn") or {}
    results = {r["box"]: r for r in view.get("results") or []}
    places = []
    for box in view.get("boxes") or []:
        number = box["box"]
        places.append({
            "number": number,
            "player": box.get("seat"),
            "stake": box.get("wager"),
            "cards": _cards(box.get("cards")),
            "total": box.get("visible_total") if not box.get("face_down_cards") else None,
            "visible_total": box.get("visible_total"),
            "state": box.get("status"),
            "state_label": labels.word(labels.STATE_LABELS, box.get("status")),
            "turn": turn.get("hand") == "box" and turn.get("box") == number,
            "result": _result(results.get(number)),
        })  # fmt: skip
    taken = {place["number"] for place in places}
    for number in sorted({a.box for a in actions if a.box is not None and "boxes" in view} - taken):
        places.append({"number": number, "empty": True, "cards": [], "state_label": ""})
    for seat in view.get("seats") or []:
        number = seat["seat"]
        up = [{"card": c} for c in seat.get("up_cards") or []]
        shown = seat.get("shown_cards")
        down = [{"card": c} for c in shown] if shown else [{"face_down": True}] * seat["down_count"]
        places.append({
            "number": number,
            "player": seat.get("player_id"),
            "stack": seat.get("stack"),
            "committed": seat.get("committed"),
            "street_bet": seat.get("street_bet"),
            "cards": _cards(down + up),
            "state": seat.get("status"),
            "state_label": labels.word(labels.STATE_LABELS, seat.get("status")),
            "turn": view.get("to_act") == number,
            "bring_in": view.get("bring_in") == number,
        })  # fmt: skip
    for place in places:
        place["actions"] = [a for a in actions if a.box == place["number"]]
        place["asks_amount"] = any(a.asks == "amount" for a in place["actions"])
    return sorted(places, key=lambda place: place["number"])


def _result(result: dict[str, Any] | None) -> dict[str, Any] | None:
    if result is None:
        return None
    outcome = str(result.get("outcome"))
    return {
        **result,
        "outcome_label": labels.word(labels.STATE_LABELS, outcome),
        "class_label": labels.word(labels.HAND_CLASSES, result.get("hand_class"))
        if result.get("hand_class")
        else "",
    }


def _bank(view: dict[str, Any]) -> dict[str, Any] | None:
    bank = view.get("bank")
    if not bank:
        return None
    return {
        "cards": _cards(bank.get("cards")),
        "total": bank.get("visible_total"),
        "state_label": labels.word(labels.STATE_LABELS, bank.get("status")),
    }


def _showdown_hands(view: dict[str, Any]) -> list[dict[str, Any]]:
    hands = (view.get("result") or {}).get("hands") or []
    return [{**h, "label": labels.word(labels.HAND_CATEGORIES, h.get("category"))} for h in hands]


def _payouts(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in (_result(r) for r in view.get("results") or []) if r]
