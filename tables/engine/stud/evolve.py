"""`evolve(state, event)`: apply one recorded fact to a Stud hand."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tables.engine.frozen import changed
from tables.engine.game import Event
from tables.engine.stud.betting import apply_action
from tables.engine.stud.dealing import open_dealing, third_street_queue
from tables.engine.stud.showdown import showdown_finished, showdown_order
from tables.engine.stud.state import (
    AWARDING,
    BETTING,
    COMMUNITY,
    COMPLETE,
    DEALING,
    DOWN,
    KILLED,
    SHOWDOWN,
    UP,
    VOIDED,
    Betting,
    DueCard,
    HeldAction,
    SeatState,
    StreetRecord,
    StudState,
)

Data = Mapping[str, Any]


def evolve(state: StudState, event: Event) -> StudState:
    try:
        apply = _APPLIERS[event.type]
    except KeyError:
        raise ValueError(f"Not a Stud event: {event.type}") from None
    return apply(state, event.data)


def _hand_started(state: StudState, data: Data) -> StudState:
    seats = tuple(
        SeatState(
            seat=s["seat"], player_id=s["player_id"], start_stack=s["stack"], stack=s["stack"]
        )
        for s in data["seats"]
        if s["seat"] in data["dealt_in"]
    )
    fresh = StudState(state.settings, street=3, seats=seats, sitting_out=tuple(data["sitting_out"]))
    return changed(fresh, phase=DEALING, deal_queue=third_street_queue(fresh))


def _ante_posted(state: StudState, data: Data) -> StudState:
    seat = state.seat(data["seat"])
    amount = data["amount"]
    return state.with_seat(
        changed(seat, stack=seat.stack - amount, committed=seat.committed + amount)
    )


def _drawn(state: StudState, card: str | None) -> StudState:
    known = state.known_cards | {card} if card is not None else state.known_cards
    return changed(state, drawn=state.drawn + 1, known_cards=known, burn_open=False)


def _card_dealt(state: StudState, data: Data) -> StudState:
    card = data["card"]
    seat = state.seat(data["seat"])
    if data["face"] == UP:
        seat = changed(seat, up=(*seat.up, card))
    else:
        seat = changed(seat, down=(*seat.down, card))
    state = _drawn(state.with_seat(seat), card)
    queue = state.deal_queue[1:]
    if data.get("exposed") and state.street == 3:
        queue = _third_card_down(queue, seat.seat)
        state = changed(state, exposed_on_deal=state.exposed_on_deal + 1)
    return changed(state, deal_queue=queue, fourth_dealt=state.fourth_dealt or state.street >= 4)


def _third_card_down(queue: tuple[DueCard, ...], seat: int) -> tuple[DueCard, ...]:
    """An exposed down card is the up card, so the seat's third card is dealt face down."""
    for index, due in enumerate(queue):
        if due.seat == seat and due.face == UP:
            return (*queue[:index], DueCard(seat, DOWN), *queue[index + 1 :])
    return queue


def _community_dealt(state: StudState, data: Data) -> StudState:
    state = _drawn(state, data["card"])
    return changed(
        state,
        community=(*state.community, data["card"]),
        deal_queue=tuple(d for d in state.deal_queue if d.seat != COMMUNITY),
        fourth_dealt=True,
    )


def _card_burned(state: StudState, data: Data) -> StudState:
    state = _drawn(state, data["card"])
    return changed(state, burns=(*state.burns, data["card"]))


def _card_dead(state: StudState, data: Data) -> StudState:
    state = _drawn(state, data["card"])
    return changed(state, dead_cards=(*state.dead_cards, data["card"]))


def _card_premature(state: StudState, data: Data) -> StudState:
    """Back to the stub: not drawn, may be dealt again, and the next street has no burn."""
    return changed(state, premature_returned=True)


def _card_held(state: StudState, data: Data) -> StudState:
    return changed(state, held_card=data["card"], held_physical_id=data["physical_id"])


def _card_corrected(state: StudState, data: Data) -> StudState:
    return changed(state, held_card=None, held_physical_id=None)


def _street_opened(state: StudState, data: Data) -> StudState:
    street, actor = data["street"], data["first_to_act"]
    if not data["betting"]:
        betting = Betting(street, data["bet_size"], actor, None, (), ())
        return changed(state, phase=BETTING, betting=betting)
    if street == 3:
        pending: tuple[int, ...] = (actor,)
        may_raise: tuple[int, ...] = ()
    else:
        pending = tuple(s.seat for s in state.clockwise_from(actor) if s.can_bet)
        may_raise = pending
    betting = Betting(
        street=street,
        size=data["bet_size"],
        first_actor=actor,
        to_act=actor,
        pending=pending,
        may_raise=may_raise,
        big_option=data["open_pair"],
        bring_in_seat=data["bring_in"],
        bring_in_due=street == 3,
        bring_in_may_fold=data["bring_in_may_fold"],
    )
    return changed(state, phase=BETTING, betting=betting)


def _action_taken(state: StudState, data: Data) -> StudState:
    return apply_action(state, data["seat"], dict(data))


def _action_held(state: StudState, data: Data) -> StudState:
    betting = state.betting
    assert betting is not None
    held = HeldAction(data["seat"], data["action"], data["to"], data["level"], data["count"])
    return changed(state, betting=changed(betting, held=(*betting.held, held)))


def _action_released(state: StudState, data: Data) -> StudState:
    betting = state.betting
    assert betting is not None
    held = tuple(h for h in betting.held if h.seat != data["seat"])
    return changed(state, betting=changed(betting, held=held))


def _betting_closed(state: StudState, data: Data) -> StudState:
    for returned in data["returned"]:
        seat = state.seat(returned["seat"])
        amount = returned["amount"]
        state = state.with_seat(
            changed(seat, stack=seat.stack + amount, committed=seat.committed - amount)
        )
    betting = state.betting
    assert betting is not None
    record = StreetRecord(betting.street, betting.first_actor, betting.last_aggressor)
    seats = tuple(changed(s, street_bet=0) for s in state.seats)
    state = changed(state, seats=seats, streets=(*state.streets, record), betting=None)
    if len(state.in_hand()) <= 1:
        return changed(state, phase=AWARDING)
    if betting.street == 7:
        state = changed(state, phase=SHOWDOWN, must_show=any(s.all_in for s in state.seats))
        return _maybe_finish_showdown(changed(state, showdown_order=showdown_order(state)))
    return open_dealing(state, betting.street + 1)


def _maybe_finish_showdown(state: StudState) -> StudState:
    if state.phase == SHOWDOWN and showdown_finished(state):
        return changed(state, phase=AWARDING)
    return state


def _hand_shown(state: StudState, data: Data) -> StudState:
    seat = state.seat(data["seat"])
    down = tuple(data["down_cards"])
    known = state.known_cards | set(down)
    state = changed(state.with_seat(changed(seat, down=down, shown=True)), known_cards=known)
    return _maybe_finish_showdown(state)


def _hand_mucked(state: StudState, data: Data) -> StudState:
    seat = state.seat(data["seat"])
    return _maybe_finish_showdown(state.with_seat(changed(seat, mucked=True)))


def _show_requested(state: StudState, data: Data) -> StudState:
    return changed(state, show_requested=(*state.show_requested, data["seat"]))


def _mucked_shown(state: StudState, data: Data) -> StudState:
    shown = (data["seat"], tuple(data["down_cards"]))
    known = state.known_cards | set(data["down_cards"])
    return changed(state, mucked_shown=(*state.mucked_shown, shown), known_cards=known)


def _hand_killed(state: StudState, data: Data) -> StudState:
    number = data["seat"]
    state = state.with_seat(changed(state.seat(number), status=KILLED))
    queue = tuple(d for d in state.deal_queue if d.seat != number)
    state = changed(state, deal_queue=queue)
    betting = state.betting
    if betting is not None:
        pending = tuple(s for s in betting.pending if s != number)
        to_act = betting.to_act
        if to_act == number:
            to_act = next((s.seat for s in state.clockwise_from(number) if s.seat in pending), None)
        may_raise = tuple(s for s in betting.may_raise if s != number)
        state = changed(
            state, betting=changed(betting, pending=pending, to_act=to_act, may_raise=may_raise)
        )
    if state.phase == DEALING and len(state.in_hand()) <= 1:
        return changed(state, phase=AWARDING)
    return _maybe_finish_showdown(state)


def _pots_awarded(state: StudState, data: Data) -> StudState:
    for payout in data["payouts"]:
        seat = state.seat(payout["seat"])
        state = state.with_seat(changed(seat, stack=seat.stack + payout["amount"]))
    return changed(state, phase=COMPLETE, result=dict(data))


def _hand_voided(state: StudState, data: Data) -> StudState:
    seats = tuple(changed(s, stack=s.start_stack, committed=0, street_bet=0) for s in state.seats)
    return changed(state, seats=seats, phase=VOIDED, void_reason=data["reason"], betting=None)


_APPLIERS: dict[str, Callable[[StudState, Data], StudState]] = {
    "hand.started": _hand_started,
    "ante.posted": _ante_posted,
    "card.dealt": _card_dealt,
    "card.community": _community_dealt,
    "card.burned": _card_burned,
    "card.dead": _card_dead,
    "card.premature": _card_premature,
    "card.held": _card_held,
    "card.corrected": _card_corrected,
    "street.opened": _street_opened,
    "action.taken": _action_taken,
    "action.held": _action_held,
    "action.released": _action_released,
    "betting.closed": _betting_closed,
    "hand.shown": _hand_shown,
    "hand.mucked": _hand_mucked,
    "hand.show_requested": _show_requested,
    "hand.mucked_shown": _mucked_shown,
    "hand.killed": _hand_killed,
    "pots.awarded": _pots_awarded,
    "hand.voided": _hand_voided,
}
