"""The showdown: who shows first, showing and mucking, and the award of every pot."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tables.engine.errors import InvalidInputError, NotAllowedNowError
from tables.engine.poker.evaluator import HandValue, best_hand
from tables.engine.stud.dealing import verify_card
from tables.engine.stud.pots import form_pots, odd_chip_order, split
from tables.engine.stud.rake import rake_pots
from tables.engine.stud.state import AWARDING, COMPLETE, SHOWDOWN, SeatState, StudState


def showdown_order(state: StudState) -> tuple[int, ...]:
    """The last aggressor on 7th street shows first, else the first to act on it (TDA 17)."""
    record = state.record_for(7)
    start = None
    if record is not None:
        start = record.last_aggressor or record.first_actor
    contenders = [s.seat for s in state.in_hand()]
    if start is None or start not in [s.seat for s in state.seats]:
        return tuple(contenders)
    return tuple(s.seat for s in state.clockwise_from(start) if s.in_hand)


def next_to_show(state: StudState) -> int | None:
    """The first seat in showdown order that has neither shown nor mucked."""
    if state.phase != SHOWDOWN:
        return None
    for number in state.showdown_order:
        seat = state.seat(number)
        if seat.live and not seat.shown:
            return number
    return None


def showdown_finished(state: StudState) -> bool:
    live = [s for s in state.in_hand() if s.live]
    return len(live) <= 1 or all(s.shown for s in live)


def verify_turn_to_show(state: StudState, number: int) -> SeatState:
    if state.phase != SHOWDOWN:
        raise NotAllowedNowError("There is no showdown now.", code="not_showdown")
    due = next_to_show(state)
    if due != number:
        raise NotAllowedNowError(
            f"Seat {due} shows or mucks before seat {number}.",
            code="not_your_turn",
            params={"due": str(due), "seat": number},
        )
    return state.seat(number)


def revealed_down_cards(state: StudState, seat: SeatState, cards: Sequence[str]) -> list[str]:
    """The seat's face-down cards once shown: known ones must match, unknown ones are filled."""
    if not cards:
        if any(card is None for card in seat.down):
            raise InvalidInputError(
                f"Seat {seat.seat}'s face-down cards are not known: enter them to show the hand.",
                code="unknown_cards_at_showdown",
                params={"seat": seat.seat},
            )
        return [card for card in seat.down if card is not None]
    if len(cards) != len(seat.down) or len(set(cards)) != len(cards):
        raise InvalidInputError(
            f"Seat {seat.seat} has {len(seat.down)} different face-down cards to show.",
            code="wrong_card_count",
            params={"seat": seat.seat, "count": len(seat.down)},
        )
    known = [card for card in seat.down if card is not None]
    missing = [card for card in known if card not in cards]
    if missing:
        raise InvalidInputError(
            f"The cards shown for seat {seat.seat} are not the face-down cards the shoe read; "
            "call the pit boss.",
            code="card_mismatch",
            params={"seat": seat.seat},
        )
    for card in cards:
        if card not in known:
            verify_card(state, card)
    fresh = iter(card for card in cards if card not in known)
    return [card if card is not None else next(fresh) for card in seat.down]


def verify_muck(state: StudState, number: int) -> None:
    verify_turn_to_show(state, number)
    if state.must_show:
        raise NotAllowedNowError(
            "A player is all-in: every hand still in is shown, none may be mucked.",
            code="must_show",
        )
    if sum(1 for s in state.in_hand() if s.live) <= 1:
        raise NotAllowedNowError("The last live hand cannot be mucked.", code="last_live_hand")
    if number in state.show_requested:
        raise NotAllowedNowError(
            f"A caller asked to see seat {number}'s hand: it must be shown.",
            code="show_requested",
            params={"seat": number},
        )


def verify_ask_to_see(state: StudState, number: int, asked_by: int) -> None:
    """Only the last aggressor on the final round, by a caller still holding a live hand."""
    if state.phase != SHOWDOWN:
        raise NotAllowedNowError("There is no showdown now.", code="not_showdown")
    record = state.record_for(7)
    if record is None or record.last_aggressor != number:
        raise NotAllowedNowError(
            f"Only the last aggressor's hand may be asked for; seat {number} was not.",
            code="not_last_aggressor",
            params={"seat": number},
        )
    seat = state.seat(number)
    if not seat.live or seat.shown:
        raise NotAllowedNowError(
            f"Seat {number}'s hand is not waiting to be shown.",
            code="not_due",
            params={"seat": number},
        )
    asker = next((s for s in state.in_hand() if s.seat == asked_by and s.live), None)
    if asker is None or asked_by == number:
        raise NotAllowedNowError(
            f"Seat {asked_by} holds no live hand to ask with.",
            code="not_a_caller",
            params={"seat": asked_by},
        )


def verify_show_mucked(state: StudState, number: int) -> SeatState:
    if state.phase not in (SHOWDOWN, AWARDING, COMPLETE):
        raise NotAllowedNowError(
            "A mucked hand is shown only at the showdown.", code="not_showdown"
        )
    seat = state.seat(number)
    if not seat.mucked:
        raise NotAllowedNowError(
            f"Seat {number} did not muck.", code="not_mucked", params={"seat": number}
        )
    return seat


def seat_cards(state: StudState, seat: SeatState) -> list[str]:
    return [card for card in seat.down if card is not None] + list(seat.up + state.community)


def award(state: StudState) -> dict[str, Any]:
    """Every pot, its rake and its winners, from the last side pot to the main pot."""
    pots = form_pots(state.seats)
    # R12: a pot of one player's own chips goes back to him like an uncalled bet, unraked.
    rakeable = [0 if pot.returned else pot.amount for pot in pots]
    rakes = rake_pots(state.settings, rakeable, raked=state.fourth_dealt)
    live = {s.seat for s in state.seats if s.live}
    contested = sum(1 for pot in pots if len([n for n in pot.eligible if n in live]) > 1)
    values = _hand_values(state, live) if contested else {}
    awarded: list[dict[str, Any]] = []
    payouts: dict[int, int] = {}
    for index in reversed(range(len(pots))):
        pot, rake = pots[index], rakes[index]
        if pot.returned:
            winners = list(pot.eligible)  # his own chips, even if he mucked
        else:
            winners = _winners([n for n in pot.eligible if n in live] or sorted(live), values)
        five_cards = {seat: values[seat].cards for seat in winners if seat in values}
        order = odd_chip_order(winners, five_cards, state.settings.odd_chip)
        shares = split(pot.amount - rake, state.settings.chip, order)
        for seat, amount in shares.items():
            payouts[seat] = payouts.get(seat, 0) + amount
        awarded.append(
            {
                "index": index,
                "amount": pot.amount,
                "rake": rake,
                "eligible": list(pot.eligible),
                "returned": pot.returned,
                "shares": [{"seat": seat, "amount": shares[seat]} for seat in winners],
            }
        )
    return {
        "pots": sorted(awarded, key=lambda pot: int(pot["index"])),
        "rake_total": sum(rakes),
        "payouts": [{"seat": seat, "amount": payouts[seat]} for seat in sorted(payouts)],
        "hands": [
            {"seat": seat, "category": value.category, "cards": list(value.cards)}
            for seat, value in sorted(values.items())
        ],
    }


def _hand_values(state: StudState, live: set[int]) -> dict[int, HandValue]:
    return {n: best_hand(seat_cards(state, state.seat(n))) for n in sorted(live)}


def _winners(contenders: Sequence[int], values: dict[int, HandValue]) -> list[int]:
    if len(contenders) == 1:
        return list(contenders)
    best = max(values[n].strength for n in contenders)
    return [n for n in contenders if values[n].strength == best]
