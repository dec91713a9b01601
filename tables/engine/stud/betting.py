"""Fixed-limit betting: the legal actions of a seat and how each one changes the street."""

from __future__ import annotations

from dataclasses import dataclass

from tables.engine.frozen import changed
from tables.engine.stud.state import Betting, StudState

AGGRESSIVE = ("bet", "complete", "raise")


@dataclass(frozen=True)
class Option:
    """A legal action: `to` is the seat's street total after it, `adds` the chips it moves."""

    kind: str
    to: int
    adds: int
    all_in: bool


def options(state: StudState, number: int) -> tuple[Option, ...]:
    """The legal actions of the seat whose turn it is (empty for anyone else)."""
    betting = state.betting
    if betting is None or betting.to_act != number:
        return ()
    seat = state.seat(number)
    top = seat.street_bet + seat.stack
    if betting.bring_in_due:
        return _bring_in_options(state, betting, seat.street_bet, top)
    found = [Option("fold", seat.street_bet, 0, False)]
    if betting.level <= seat.street_bet:
        found.append(Option("check", seat.street_bet, 0, False))
    else:
        found.append(_reach("call", betting.level, seat.street_bet, top))
    # A raise needs someone left to call it: never against players who are all all-in.
    opponents = any(s.can_bet for s in state.seats if s.seat != number)
    if top > betting.level and number in betting.may_raise and opponents and cap_allows(state):
        kind = "raise" if betting.count else ("complete" if betting.street == 3 else "bet")
        found.extend(_reach(kind, target, seat.street_bet, top) for target in targets(state))
    return _distinct(found)


def _bring_in_options(state: StudState, betting: Betting, bet: int, top: int) -> tuple[Option, ...]:
    settings = state.settings
    found = [_reach("bring_in", settings.bring_in, bet, top)]
    if top > settings.bring_in:
        found.append(_reach("complete", settings.small_bet, bet, top))
    if betting.bring_in_may_fold:
        found.append(Option("fold", bet, 0, False))
    return _distinct(found)


def _reach(kind: str, target: int, street_bet: int, top: int) -> Option:
    to = min(target, top)
    return Option(kind, to, to - street_bet, to == top)


def _distinct(found: list[Option]) -> tuple[Option, ...]:
    seen: set[tuple[str, int]] = set()
    unique = []
    for option in found:
        if (option.kind, option.to) not in seen:
            seen.add((option.kind, option.to))
            unique.append(option)
    return tuple(unique)


def bet_sizes(state: StudState) -> tuple[int, ...]:
    """S or B; both while the 4th-street open-pair option is live and B has not been used."""
    betting = state.betting
    assert betting is not None
    if betting.big_option and state.settings.big_bet != betting.size:
        return (betting.size, state.settings.big_bet)
    return (betting.size,)


def targets(state: StudState) -> tuple[int, ...]:
    """The street totals a full bet, completion or raise goes to."""
    betting = state.betting
    assert betting is not None
    if betting.count == 0:
        return bet_sizes(state)
    found = []
    for size in bet_sizes(state):
        target = betting.full_level + size
        # A chain of short all-ins can climb past the last full bet plus one size.
        found.append(target if target > betting.level else betting.level + size)
    return tuple(found)


def cap_allows(state: StudState) -> bool:
    """One bet and `raise_cap` raises, unless at most two players can still bet."""
    betting = state.betting
    assert betting is not None
    if betting.count < state.settings.raise_cap + 1:
        return True
    heads_up = len(state.can_bet()) <= 2
    return state.settings.heads_up_uncapped and heads_up and not betting.capped_multiway


def is_full(state: StudState, option: Option) -> bool:
    """Whether an aggressive action is a full bet or raise (it reopens and counts to the cap)."""
    betting = state.betting
    assert betting is not None
    if option.kind not in AGGRESSIVE:
        return False
    if option.to in targets(state):
        return True
    size = betting.size
    if betting.count == 0:
        return 2 * option.to >= size
    return 2 * (option.to - betting.level) >= size


def uses_big_bet(state: StudState, option: Option) -> bool:
    """A bet or raise of B under the open-pair option: from then on every raise is B."""
    betting = state.betting
    assert betting is not None
    if not betting.big_option or option.kind not in AGGRESSIVE:
        return False
    base = betting.full_level if betting.count else 0
    return option.to - base >= state.settings.big_bet


def apply_action(state: StudState, seat_number: int, data: dict[str, object]) -> StudState:
    """Apply a recorded action (see decide for the event's fields)."""
    betting = state.betting
    assert betting is not None
    kind, to, adds = str(data["action"]), int(str(data["to"])), int(str(data["adds"]))
    state = _move_chips(state, seat_number, kind, to, adds, in_turn=not data.get("out_of_turn"))
    betting = changed(
        betting,
        pending=tuple(s for s in betting.pending if s != seat_number),
        may_raise=tuple(s for s in betting.may_raise if s != seat_number),
        held=tuple(h for h in betting.held if h.seat != seat_number),
    )
    others = tuple(
        s.seat for s in state.clockwise_from(seat_number) if s.can_bet and s.seat != seat_number
    )
    if kind == "bring_in":
        level = max(state.settings.bring_in, to)
        betting = changed(
            betting, level=level, bring_in_due=False, pending=others, may_raise=others
        )
    elif kind == "fold" and betting.bring_in_due and seat_number == betting.to_act:
        # TDA RP-10-E: the duty passes to the next player with chips.
        following = next(iter(others), None)
        betting = changed(
            betting, bring_in_seat=following, pending=(following,) if following else ()
        )
    elif data.get("full"):
        betting = _after_full_bet(state, betting, seat_number, to, bool(data.get("big")), others)
    elif kind in AGGRESSIVE and to > betting.level:
        betting = _after_short_all_in(state, betting, seat_number, to, others)
    to_act = _next_to_act(state, betting, seat_number)
    return changed(state, betting=changed(betting, to_act=to_act))


def _move_chips(
    state: StudState, number: int, kind: str, to: int, adds: int, *, in_turn: bool
) -> StudState:
    seat = state.seat(number)
    status = "folded" if kind == "fold" else seat.status
    seat = changed(
        seat, stack=seat.stack - adds, committed=seat.committed + adds, street_bet=to, status=status
    )
    state = state.with_seat(seat)
    if kind == "bring_in" or not in_turn:
        return state  # TDA 36: the bring-in does not count toward substantial action
    return changed(
        state,
        actions_in_turn=state.actions_in_turn + 1,
        chip_actions=state.chip_actions + (adds > 0),
    )


def _after_full_bet(
    state: StudState, betting: Betting, seat: int, to: int, big: bool, others: tuple[int, ...]
) -> Betting:
    count = betting.count + 1
    # Counted as the raise was made: a capping raise that puts its maker all-in still caps.
    could_bet = sum(1 for s in state.in_hand() if s.stack > 0 or s.seat == seat)
    capped = betting.capped_multiway or (count >= state.settings.raise_cap + 1 and could_bet > 2)
    return changed(
        betting,
        level=to,
        full_level=to,
        count=count,
        capped_multiway=capped,
        pending=others,
        may_raise=others,
        last_aggressor=seat,
        bring_in_due=False,
        size=state.settings.big_bet if big else betting.size,
        big_option=betting.big_option and not big,
    )


def _after_short_all_in(
    state: StudState, betting: Betting, seat: int, to: int, others: tuple[int, ...]
) -> Betting:
    """An all-in below a full bet: it reopens nothing for those who acted (TDA 47-B).

    R9: when it is the bring-in player's completion, the bring-in is made and nobody has acted
    yet, so every later player may call it, complete to the full bet, or fold.
    """
    facing = tuple(s for s in others if state.seat(s).street_bet < to)
    pending = betting.pending + tuple(s for s in facing if s not in betting.pending)
    may_raise = others if betting.bring_in_due else betting.may_raise
    return changed(
        betting,
        level=to,
        pending=pending,
        may_raise=may_raise,
        last_aggressor=seat,
        bring_in_due=False,
    )


def _next_to_act(state: StudState, betting: Betting, actor: int) -> int | None:
    if betting.to_act is not None and betting.to_act != actor and betting.to_act in betting.pending:
        return betting.to_act  # a fold out of turn leaves the turn where it was
    return next((s.seat for s in state.clockwise_from(actor) if s.seat in betting.pending), None)


def is_street_over(state: StudState) -> bool:
    betting = state.betting
    if betting is None:
        return False
    return not betting.pending or len(state.in_hand()) <= 1 or _lone_player_owes_nothing(state)


def _lone_player_owes_nothing(state: StudState) -> bool:
    """R11: at most one player can still bet and he owes nothing: nobody is asked to act."""
    betting = state.betting
    assert betting is not None
    able = state.can_bet()
    if len(able) > 1:
        return False
    return all(seat.street_bet >= betting.level for seat in able)


def uncalled_bets(state: StudState) -> list[dict[str, int]]:
    """The part of the top bet no one matched returns to its owner."""
    bets = sorted((s.street_bet for s in state.seats), reverse=True)
    top = max(state.seats, key=lambda s: s.street_bet)
    second = bets[1] if len(bets) > 1 else 0
    if top.street_bet > second and top.in_hand:
        return [{"seat": top.seat, "amount": top.street_bet - second}]
    return []
