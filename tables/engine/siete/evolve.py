"""Apply one recorded fact to the state. Evolve never refuses: every check happened in decide."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tables.engine.frozen import changed
from tables.engine.game import Event
from tables.engine.siete.settings import SieteSettings
from tables.engine.siete.settlement import BoxResult, parse_amount
from tables.engine.siete.shoe import count_drawn, count_identified, shuffled
from tables.engine.siete.state import Box, HandCard, Round, SieteState

Data = Mapping[str, Any]


def evolve(state: SieteState, event: Event) -> SieteState:
    handler = _HANDLERS.get(event.type)
    if handler is None:
        raise ValueError(f"unknown Siete y Medio event type {event.type!r}")
    return handler(state, event.data)


def hand_card_from(data: Data) -> HandCard:
    return HandCard(
        card=data["card"],
        face_up=bool(data.get("face_up", True)),
        physical_id=data.get("physical_id"),
        source=data.get("source", "tablet"),
    )


def _round(state: SieteState) -> Round:
    assert state.round is not None, "a round event without an open round"
    return state.round


def _with_round(state: SieteState, **changes: Any) -> SieteState:
    return changed(state, round=changed(_round(state), **changes))


def _with_box(state: SieteState, number: int, **changes: Any) -> SieteState:
    round_ = _round(state)
    boxes = tuple(changed(b, **changes) if b.number == number else b for b in round_.boxes)
    return changed(state, round=changed(round_, boxes=boxes))


def _settings_changed(state: SieteState, data: Data) -> SieteState:
    return changed(state, settings=SieteSettings.from_mapping(data["settings"]))


def _round_opened(state: SieteState, data: Data) -> SieteState:
    return changed(state, round=Round(number=data["round"]), rounds_opened=data["round"])


def _shoe_shuffled(state: SieteState, data: Data) -> SieteState:
    return changed(state, shoe=shuffled(state.shoe, state.round, data["burns_due"]))


def _cut_card_drawn(state: SieteState, data: Data) -> SieteState:
    return changed(state, shoe=changed(state.shoe, cut_card_out=True))


def _wager_placed(state: SieteState, data: Data) -> SieteState:
    round_ = _round(state)
    box = Box(number=data["box"], seat=data["seat"], stake=data["amount"])
    boxes = tuple(sorted((*round_.boxes, box), key=lambda b: b.number))
    return _with_round(state, boxes=boxes)


def _wager_changed(state: SieteState, data: Data) -> SieteState:
    return _with_box(state, data["box"], stake=data["amount"])


def _wager_cancelled(state: SieteState, data: Data) -> SieteState:
    boxes = tuple(b for b in _round(state).boxes if b.number != data["box"])
    return _with_round(state, boxes=boxes)


def _betting_closed(state: SieteState, data: Data) -> SieteState:
    return _with_round(state, betting_closed=True)


def _take_card(state: SieteState, data: Data) -> tuple[SieteState, HandCard]:
    """Count a card that left the shoe, or take back the misdrawn card waiting for a draw."""
    if data.get("from_waiting"):
        round_ = _round(state)
        waiting = round_.misdrawn_waiting
        return _with_round(state, misdrawn_waiting=waiting[1:]), changed(
            waiting[0], face_up=bool(data.get("face_up", True))
        )
    hand_card = hand_card_from(data)
    return changed(state, shoe=count_drawn(state.shoe, hand_card)), hand_card


def _card_dealt(state: SieteState, data: Data) -> SieteState:
    state, hand_card = _take_card(state, data)
    if data["hand"] == "bank":
        return _with_round(state, bank=(*_round(state).bank, hand_card))
    box = _round(state).box(data["box"])
    assert box is not None
    return _with_box(state, box.number, cards=(*box.cards, hand_card), pending_draw=None)


def _card_dead(state: SieteState, data: Data) -> SieteState:
    state, hand_card = _take_card(state, data)
    if state.round is None:
        return state
    return _with_round(state, dead=(*state.round.dead, hand_card))


def _card_burned(state: SieteState, data: Data) -> SieteState:
    state = _card_dead(state, data)
    return changed(state, shoe=changed(state.shoe, burns_due=max(state.shoe.burns_due - 1, 0)))


def _card_misdrawn(state: SieteState, data: Data) -> SieteState:
    state, hand_card = _take_card(state, data)
    return _with_round(state, misdrawn_waiting=(*_round(state).misdrawn_waiting, hand_card))


def _card_held(state: SieteState, data: Data) -> SieteState:
    return _with_round(state, held="duplicate_card", held_card=hand_card_from(data))


def _card_corrected(state: SieteState, data: Data) -> SieteState:
    return _with_round(state, held=None, held_card=None)


def _round_held(state: SieteState, data: Data) -> SieteState:
    return _with_round(state, held=data["reason"])


def _draw_requested(state: SieteState, data: Data) -> SieteState:
    state = _with_box(
        state, data["box"], pending_draw="face_down" if data["face_down"] else "face_up"
    )
    return _with_round(state, first_decision=True)


def _box_stood(state: SieteState, data: Data) -> SieteState:
    state = _with_box(state, data["box"], turn_over=True)
    return state if data.get("automatic") else _with_round(state, first_decision=True)


def _card_revealed(state: SieteState, data: Data) -> SieteState:
    round_ = _round(state)
    index, code = data["index"], data["card"]
    if data["hand"] == "bank":
        cards = round_.bank
    else:
        box = round_.box(data["box"])
        assert box is not None
        cards = box.cards
    if cards[index].card is None:
        state = changed(state, shoe=count_identified(state.shoe, code))
    revealed = (*cards[:index], changed(cards[index], card=code, face_up=True), *cards[index + 1 :])
    if data["hand"] == "bank":
        return _with_round(state, bank=revealed)
    state = _with_box(state, data["box"], cards=revealed)
    return _with_round(state, first_decision=True)


def _box_bust(state: SieteState, data: Data) -> SieteState:
    state = _with_box(state, data["box"], bust=data["kind"], turn_over=True, pending_draw=None)
    return _with_round(state, first_decision=True)


def _bust_refused(state: SieteState, data: Data) -> SieteState:
    return _with_round(state, first_decision=True)


def _bank_finished(state: SieteState, data: Data) -> SieteState:
    return _with_round(state, bank_finished=True)


def _box_settled(state: SieteState, data: Data) -> SieteState:
    result = BoxResult(
        outcome=data["outcome"],
        hand_class=data["hand_class"],
        total_halves=data["total_halves"],
        stake=data["stake"],
        net=data["net"],
        breakage=parse_amount(data["breakage"]),
    )
    return _with_box(state, data["box"], result=result)


def _box_voided(state: SieteState, data: Data) -> SieteState:
    return _with_box(state, data["box"], removed="voided", pending_draw=None)


def _wager_withdrawn(state: SieteState, data: Data) -> SieteState:
    return _with_box(state, data["box"], removed="sat_out", turn_over=True)


def _round_settled(state: SieteState, data: Data) -> SieteState:
    return _with_round(state, settled=True)


def _round_voided(state: SieteState, data: Data) -> SieteState:
    return _with_round(state, voided=True, held=None, held_card=None)


def _card_moved(state: SieteState, data: Data) -> SieteState:
    """The two boxes exchange their deal cards (a box without a card simply receives one)."""
    round_ = _round(state)
    source, target = round_.box(data["from_box"]), round_.box(data["to_box"])
    assert source is not None
    assert target is not None
    state = _with_box(state, source.number, cards=target.cards)
    return _with_box(state, target.number, cards=source.cards)


def _payout_recorded(state: SieteState, data: Data) -> SieteState:
    return _with_box(state, data["box"], recorded_payout=data["amount"])


def _alert_raised(state: SieteState, data: Data) -> SieteState:
    if state.round is None:
        return state
    return _with_round(state, alerts=(*state.round.alerts, dict(data)))


_HANDLERS: dict[str, Callable[[SieteState, Data], SieteState]] = {
    "settings.changed": _settings_changed,
    "round.opened": _round_opened,
    "shoe.shuffled": _shoe_shuffled,
    "cut_card.drawn": _cut_card_drawn,
    "wager.placed": _wager_placed,
    "wager.changed": _wager_changed,
    "wager.cancelled": _wager_cancelled,
    "wager.withdrawn": _wager_withdrawn,
    "betting.closed": _betting_closed,
    "card.dealt": _card_dealt,
    "card.dead": _card_dead,
    "card.burned": _card_burned,
    "card.misdrawn": _card_misdrawn,
    "card.held": _card_held,
    "card.corrected": _card_corrected,
    "card.revealed": _card_revealed,
    "round.held": _round_held,
    "draw.requested": _draw_requested,
    "box.stood": _box_stood,
    "box.bust": _box_bust,
    "bust.refused": _bust_refused,
    "bank.finished": _bank_finished,
    "box.settled": _box_settled,
    "box.voided": _box_voided,
    "round.settled": _round_settled,
    "round.voided": _round_voided,
    "card.moved": _card_moved,
    "payout.recorded": _payout_recorded,
    "payout.corrected": _payout_recorded,
    "alert.raised": _alert_raised,
}

EVENT_TYPES = tuple(_HANDLERS)
