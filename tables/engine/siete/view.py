"""What the screens show. `live_view` is the dealer's tablet: it never includes a face-down
card, not even one the shoe has read, and never shows an undeclared bust before the round
settles. `audit_view` is the auditor's: everything the engine knows.
"""

from __future__ import annotations

from typing import Any

from tables.engine.siete.cards import VALUE_HALVES, format_points
from tables.engine.siete.legal import legal_commands
from tables.engine.siete.rules import (
    BANK,
    BETTING,
    DEALING,
    PLAYERS,
    SETTLED,
    VOIDED,
    current_box,
    known_total,
    next_deal_box,
    phase,
)
from tables.engine.siete.settlement import BoxResult, format_amount
from tables.engine.siete.state import Box, HandCard, Round, SieteState


def live_view(state: SieteState) -> dict[str, Any]:
    round_ = state.round
    current = phase(round_)
    view: dict[str, Any] = {
        "game": "siete_y_medio",
        "round": round_.number if round_ else None,
        "phase": current,
        "held": round_.held if round_ else None,
        "turn": _turn(round_),
        "next_card": _next_card(state),
        "boxes": [_live_box(round_, box) for box in round_.boxes] if round_ else [],
        "bank": _live_bank(round_) if round_ else None,
        "legal": legal_commands(state),
        "results": _results(round_) if round_ and current == SETTLED else None,
        "limits": {
            "min_stake": state.settings.min_stake,
            "max_stake": state.settings.max_stake,
            "chip": state.settings.chip,
        },
        "shoe": _shoe(state),
    }
    return view


def _turn(round_: Round | None) -> dict[str, Any] | None:
    if round_ is None:
        return None
    if phase(round_) == PLAYERS:
        box = current_box(round_)
        return {"hand": "box", "box": box.number if box else None}
    if phase(round_) == BANK:
        return {"hand": "bank"}
    return None


def _next_card(state: SieteState) -> dict[str, Any] | None:
    """Where the next card out of the shoe goes, so the tablet can say it before it is drawn."""
    round_ = state.round
    if round_ is None or phase(round_) in (SETTLED, VOIDED) or round_.held:
        return None
    if state.shoe.burns_due:
        return {"hand": "burn"}
    if phase(round_) == BETTING:
        return {"hand": "box", "box": round_.boxes[0].number} if round_.boxes else None
    if phase(round_) == DEALING:
        box = next_deal_box(round_)
        return {"hand": "box", "box": box.number} if box else {"hand": "bank"}
    if phase(round_) == PLAYERS:
        playing = current_box(round_)
        if playing is not None and playing.pending_draw:
            return {
                "hand": "box",
                "box": playing.number,
                "face_down": playing.pending_draw == "face_down",
            }
    if phase(round_) == BANK:
        return {"hand": "bank"}
    return None


def _visible_cards(cards: tuple[HandCard, ...]) -> list[dict[str, Any]]:
    return [{"card": c.card} if c.face_up else {"face_down": True} for c in cards]


def _face_up_total(cards: tuple[HandCard, ...]) -> str:
    return format_points(sum(VALUE_HALVES[c.card] for c in cards if c.face_up and c.card))


def _live_box(round_: Round, box: Box) -> dict[str, Any]:
    return {
        "box": box.number,
        "seat": box.seat,
        "wager": box.stake,
        "cards": _visible_cards(box.cards),
        "visible_total": _face_up_total(box.cards),
        "face_down_cards": sum(1 for c in box.cards if not c.face_up),
        "status": _live_status(round_, box),
        "pending_draw": box.pending_draw,
    }


def _live_status(round_: Round, box: Box) -> str:
    if box.removed is not None:
        return box.removed
    if phase(round_) == SETTLED and box.result is not None:
        return box.result.outcome
    if box.bust in ("declared", "visible"):
        return "bust"
    if box.turn_over:
        return "stood"  # an undeclared bust stays hidden from the table until the round settles
    if phase(round_) == DEALING or not box.cards:
        return "dealing"
    current = current_box(round_)
    return "playing" if current is not None and current.number == box.number else "waiting"


def _live_bank(round_: Round) -> dict[str, Any]:
    if round_.bank_finished:
        status = "finished"
    elif phase(round_) == BANK:
        status = "playing"
    else:
        status = "waiting"
    return {
        "cards": _visible_cards(round_.bank),
        "visible_total": _face_up_total(round_.bank),
        "status": status,
    }


def _result(box: Box, result: BoxResult) -> dict[str, Any]:
    return {
        "box": box.number,
        "outcome": result.outcome,
        "hand_class": result.hand_class,
        "total": format_points(result.total_halves),
        "stake": result.stake,
        "net": result.net,
        "returned": result.returned,
        "breakage": format_amount(result.breakage),
        "recorded_payout": box.recorded_payout,
    }


def _results(round_: Round) -> list[dict[str, Any]]:
    results = []
    for box in round_.boxes:
        if box.result is not None and box.removed is None:
            results.append(_result(box, box.result))
        else:
            results.append(
                {
                    "box": box.number,
                    "outcome": box.removed or "voided",
                    "stake": box.stake,
                    "net": 0,
                    "returned": box.stake,
                    "recorded_payout": box.recorded_payout,
                }
            )
    return results


def _shoe(state: SieteState) -> dict[str, Any]:
    shoe = state.shoe
    return {
        "cards_drawn": len(shoe.drawn),
        "cards_left": 40 * state.settings.decks - len(shoe.drawn),
        "burns_due": shoe.burns_due,
        "cut_card_out": shoe.cut_card_out,
    }


def _all_cards(cards: tuple[HandCard, ...]) -> list[dict[str, Any]]:
    return [
        {"card": c.card, "face_up": c.face_up, "physical_id": c.physical_id, "source": c.source}
        for c in cards
    ]


def audit_view(state: SieteState) -> dict[str, Any]:
    """Everything the engine knows, face-down cards and alerts included."""
    round_ = state.round
    view = live_view(state)
    view["settings"] = state.settings.to_mapping()
    view["shoe"]["drawn"] = list(state.shoe.drawn)
    view["shoe"]["physical_ids"] = sorted(state.shoe.physical_ids)
    view["shoe"]["shuffles"] = state.shoe.shuffles
    if round_ is None:
        return view
    view["boxes"] = [_audit_box(box) for box in round_.boxes]
    view["bank"] = {
        "cards": _all_cards(round_.bank),
        "total": _total(round_.bank),
        "finished": round_.bank_finished,
    }
    view["dead_cards"] = _all_cards(round_.dead)
    view["misdrawn_waiting"] = _all_cards(round_.misdrawn_waiting)
    view["alerts"] = [dict(alert) for alert in round_.alerts]
    view["voided"] = round_.voided
    view["results"] = _results(round_) if round_.settled else None
    return view


def _total(cards: tuple[HandCard, ...]) -> str | None:
    total = known_total(cards)
    return None if total is None else format_points(total)


def _audit_box(box: Box) -> dict[str, Any]:
    return {
        "box": box.number,
        "seat": box.seat,
        "wager": box.stake,
        "cards": _all_cards(box.cards),
        "total": _total(box.cards),
        "turn_over": box.turn_over,
        "bust": box.bust,
        "removed": box.removed,
        "result": _result(box, box.result) if box.result else None,
        "recorded_payout": box.recorded_payout,
    }
