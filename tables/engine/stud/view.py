"""What the table screens show (`live_view`: never a hole card before showdown) and the audit."""

from __future__ import annotations

from typing import Any

from tables.engine.stud.betting import options
from tables.engine.stud.pots import form_pots
from tables.engine.stud.showdown import next_to_show
from tables.engine.stud.state import COMMUNITY, DEALING, SeatState, StudState


def live_view(state: StudState) -> dict[str, Any]:
    betting = state.betting
    to_act = betting.to_act if betting is not None else None
    return {
        "game": "seven_card_stud",
        "phase": state.phase,
        "street": state.street,
        "seats": [_live_seat(seat) for seat in state.seats],
        "sitting_out": list(state.sitting_out),
        "community": list(state.community),
        "to_act": to_act,
        "bring_in": betting.bring_in_seat if betting is not None and betting.street == 3 else None,
        "legal_actions": _legal(state, to_act),
        "card_due": _card_due(state),
        "next_to_show": next_to_show(state),
        "must_show": state.must_show,
        "pots": [
            {"amount": p.amount, "eligible": list(p.eligible)} for p in form_pots(state.seats)
        ],
        "result": state.result,
        "void_reason": state.void_reason,
        "substantial_action": state.substantial_action,
        "held": state.held_card is not None,
        # TDA 35: two or more down cards exposed on the deal is a misdeal.
        "misdeal_suspected": state.exposed_on_deal >= 2,
        "declared_out_of_turn": [
            {"seat": h.seat, "action": h.kind, "amount": h.to}
            for h in (betting.held if betting is not None else ())
        ],
    }


def audit_view(state: StudState) -> dict[str, Any]:
    """Everything, hole cards included: for the audit trail and the pit, never the live screens."""
    view = live_view(state)
    for entry, seat in zip(view["seats"], state.seats, strict=True):
        entry["down_cards"] = list(seat.down)
    view.update(
        {
            "settings": state.settings.to_mapping(),
            "burns": list(state.burns),
            "dead_cards": list(state.dead_cards),
            "drawn": state.drawn,
            "fourth_street_dealt": state.fourth_dealt,
            "showdown_order": list(state.showdown_order),
            "streets": [
                {
                    "street": r.street,
                    "first_actor": r.first_actor,
                    "last_aggressor": r.last_aggressor,
                }
                for r in state.streets
            ],
        }
    )
    return view


def _live_seat(seat: SeatState) -> dict[str, Any]:
    status = seat.status
    if seat.all_in:
        status = "all_in"
    elif seat.mucked:
        status = "mucked"
    return {
        "seat": seat.seat,
        "player_id": seat.player_id,
        "stack": seat.stack,
        "committed": seat.committed,
        "street_bet": seat.street_bet,
        "status": status,
        "in_hand": seat.in_hand,
        "up_cards": list(seat.up),
        "down_count": len(seat.down),
        "shown_cards": list(seat.down) if seat.shown else None,
    }


def _legal(state: StudState, to_act: int | None) -> list[dict[str, Any]]:
    if to_act is None or state.held_card is not None:
        return []
    return [
        {"action": o.kind, "amount": o.to, "adds": o.adds, "all_in": o.all_in}
        for o in options(state, to_act)
    ]


def _card_due(state: StudState) -> dict[str, Any] | None:
    if state.phase != DEALING or not state.deal_queue:
        return None
    due = state.deal_queue[0]
    return {
        "seat": None if due.seat == COMMUNITY else due.seat,
        "community": due.seat == COMMUNITY,
        "face": due.face,
        "burn_allowed": state.burn_open,
    }
