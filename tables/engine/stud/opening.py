"""Opening a street's betting: the bring-in on 3rd street, the highest showing hand after."""

from __future__ import annotations

from typing import Any

from tables.engine.poker.cards import RANK_VALUES
from tables.engine.stud.showing import (
    bring_in_seat,
    first_with_chips_from,
    opener_for_street,
)
from tables.engine.stud.state import StudState


def street_opening(state: StudState) -> dict[str, Any]:
    """The facts of a street's opening, recorded so replay never has to recompute them."""
    street = state.street
    settings = state.settings
    can_bet = len(state.can_bet()) >= 2
    opener = bring_in_seat(state) if street == 3 else opener_for_street(state, street)
    actor = first_with_chips_from(state, opener) if can_bet else None
    return {
        "street": street,
        "opener": opener,
        "first_to_act": actor if actor is not None else opener,
        "betting": can_bet,
        "bring_in": actor if street == 3 else None,
        # TDA RP-10-E: a bring-in passed on from an all-in player may be declined by folding.
        "bring_in_may_fold": street == 3 and actor != opener,
        "bet_size": settings.small_bet if street <= 4 else settings.big_bet,
        "open_pair": street == 4 and settings.open_pair_big_bet and _open_pair(state),
    }


def _open_pair(state: StudState) -> bool:
    """Any player in the hand (all-in included) shows a pair in their two up cards."""
    return any(
        len(seat.up) >= 2 and RANK_VALUES[seat.up[0][0]] == RANK_VALUES[seat.up[1][0]]
        for seat in state.in_hand()
    )
