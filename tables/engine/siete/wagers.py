"""Betting: wagers are placed, changed or withdrawn only before the first card of the round."""

from __future__ import annotations

from tables.engine.siete.builder import EventBuilder, refuse
from tables.engine.siete.checks import verify_box_number, verify_stake
from tables.engine.siete.commands import CancelWager, ChangeWager, PlaceWager, StartRound
from tables.engine.siete.rules import BETTING, phase, round_in_progress
from tables.engine.siete.state import Round


def start_round(b: EventBuilder, command: StartRound | None = None) -> None:
    if round_in_progress(b.state.round):
        refuse("round_in_progress", "Finish or void the current round first.")
    settings, shoe = b.state.settings, b.state.shoe
    # Every round is dealt from a freshly shuffled shoe unless the cut-card rule is chosen, in
    # which case the shoe is shuffled when the cut card came out (and before the first round).
    if settings.shuffle == "every_round" or shoe.cut_card_out or shoe.shuffles == 0:
        b.emit("shoe.shuffled", during_round=False, burns_due=settings.burn_after_shuffle)
    b.emit("round.opened", round=b.state.rounds_opened + 1)


def _betting_round(b: EventBuilder) -> Round:
    if not round_in_progress(b.state.round):
        start_round(b)
    if phase(b.round) != BETTING:
        refuse("wagers_closed", "Wagers closed with the first card of the round.")
    if b.round.held:
        refuse("round_held", "The round is held for the pit boss.")
    return b.round


def place_wager(b: EventBuilder, command: PlaceWager) -> None:
    number = verify_box_number(command.box)
    seat = number if command.seat is None else verify_box_number(command.seat)
    stake = verify_stake(command.amount, b.state.settings)
    round_ = _betting_round(b)
    if round_.box(number) is not None:
        refuse("box_taken", f"Box {number} already has a wager this round.", box=number)
    if seat != number:
        _verify_extra_box(b, round_, seat, number)
    b.emit("wager.placed", box=number, seat=seat, amount=stake)


def _verify_extra_box(b: EventBuilder, round_: Round, seat: int, number: int) -> None:
    """A seated player may also bet on empty boxes next to their seat, up to boxes_per_player."""
    limit = b.state.settings.boxes_per_player
    own = sorted([box.number for box in round_.boxes if box.seat == seat] + [number])
    if limit == 1:
        refuse("box_not_your_seat", "At this table a player bets only on the box of their seat.")
    if len(own) > limit:
        refuse(
            "too_many_boxes",
            f"A player may play at most {limit} boxes at this table.",
            limit=limit,
        )
    if seat not in own or own != list(range(own[0], own[-1] + 1)):
        refuse(
            "box_not_adjacent",
            f"Box {number} is not next to seat {seat}'s other boxes.",
            box=number,
            seat=seat,
        )


def change_wager(b: EventBuilder, command: ChangeWager) -> None:
    number = verify_box_number(command.box)
    stake = verify_stake(command.amount, b.state.settings)
    round_ = _betting_round(b)
    if round_.box(number) is None:
        refuse("no_wager", f"Box {number} has no wager to change.", box=number)
    b.emit("wager.changed", box=number, amount=stake)


def cancel_wager(b: EventBuilder, command: CancelWager) -> None:
    number = verify_box_number(command.box)
    round_ = _betting_round(b)
    if round_.box(number) is None:
        refuse("no_wager", f"Box {number} has no wager to withdraw.", box=number)
    b.emit("wager.cancelled", box=number)
