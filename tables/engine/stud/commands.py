"""Commands a Stud table accepts, and their construction from a JSON body.

Betting amounts are the player's **total bet on the current street after the action**
("raise to 40"), the same figure the live view lists as a legal action's `amount`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tables.engine.errors import InvalidInputError


@dataclass(frozen=True)
class SeatEntry:
    seat: int
    player_id: str
    stack: int


@dataclass(frozen=True)
class StartHand:
    seats: tuple[SeatEntry, ...]


@dataclass(frozen=True)
class RecordCard:
    """A card leaving the deck.

    `card` None = face down and not read; `seat` None = the engine gives it to whoever is due.
    """

    card: str | None
    seat: int | None = None
    physical_id: str | None = None
    source: str = "tablet"
    exposed: bool = False  # a card due face down that was dealt face up


@dataclass(frozen=True)
class Burn:
    card: str | None = None
    physical_id: str | None = None
    source: str = "tablet"


@dataclass(frozen=True)
class Action:
    """A betting action; `kind` is one of ACTION_KINDS."""

    kind: str
    seat: int
    amount: int | None = None


@dataclass(frozen=True)
class Show:
    """Show a hand; `cards` are the seat's face-down cards (needed when any is unknown)."""

    seat: int
    cards: tuple[str, ...] = ()


@dataclass(frozen=True)
class Muck:
    seat: int


@dataclass(frozen=True)
class AwardPots:
    pass


@dataclass(frozen=True)
class AskToSee:
    """A caller who kept their cards asks to see the last aggressor's hand (TDA 18-B)."""

    seat: int
    asked_by: int


@dataclass(frozen=True)
class ShowMucked:
    """The pit boss shows a mucked hand to the players at the showdown; the award stands."""

    seat: int
    cards: tuple[str, ...] = ()


@dataclass(frozen=True)
class VoidHand:
    """`cause` (optional) lets the engine check it: `misdeal` only before substantial action."""

    reason: str
    cause: str | None = None
    requested_by: str | None = None
    approved_by: str | None = None


@dataclass(frozen=True)
class ClockExpired:
    """The pit boss called the clock on `seat` and time ran out (TDA 29)."""

    seat: int


@dataclass(frozen=True)
class KillHand:
    seat: int
    reason: str
    requested_by: str | None = None
    approved_by: str | None = None


@dataclass(frozen=True)
class CorrectHeldCard:
    """The shoe read a card already seen and held the hand; the dealer enters the true card."""

    card: str
    requested_by: str | None = None
    approved_by: str | None = None


ACTION_KINDS = ("fold", "check", "call", "bet", "complete", "raise", "bring_in")
SOURCES = ("tablet", "shoe", "simulation")

VOID_CAUSES = ("misdeal", "fouled_deck", "device_failure")

Command = (
    StartHand
    | RecordCard
    | Burn
    | Action
    | Show
    | Muck
    | AskToSee
    | ShowMucked
    | AwardPots
    | VoidHand
    | KillHand
    | ClockExpired
    | CorrectHeldCard
)


def Fold(seat: int) -> Action:  # noqa: N802 - reads like the other command constructors
    return Action("fold", seat)


def Check(seat: int) -> Action:  # noqa: N802
    return Action("check", seat)


def Call(seat: int, amount: int | None = None) -> Action:  # noqa: N802
    return Action("call", seat, amount)


def Bet(seat: int, amount: int | None = None) -> Action:  # noqa: N802
    return Action("bet", seat, amount)


def Complete(seat: int, amount: int | None = None) -> Action:  # noqa: N802
    return Action("complete", seat, amount)


def Raise(seat: int, amount: int | None = None) -> Action:  # noqa: N802
    return Action("raise", seat, amount)


def BringIn(seat: int, amount: int | None = None) -> Action:  # noqa: N802
    return Action("bring_in", seat, amount)


def command_from_json(kind: str, data: Mapping[str, Any]) -> Command:
    """Build a command from its type name and JSON body; malformed input is refused."""
    if not isinstance(data, Mapping):
        raise _bad("The command body must be a JSON object.")
    if kind in ACTION_KINDS:
        return Action(kind, _int(data, "seat"), _int(data, "amount", optional=True))
    builder = _BUILDERS.get(kind)
    if builder is None:
        raise InvalidInputError(
            f"Unknown Stud command {kind!r}.",
            code="unknown_command",
            params={"command": repr(kind)},
        )
    return builder(data)


def _start_hand(data: Mapping[str, Any]) -> StartHand:
    seats = data.get("seats")
    if not isinstance(seats, list | tuple) or not seats:
        raise _bad("start_hand needs a non-empty list of seats.")
    entries = []
    for entry in seats:
        if not isinstance(entry, Mapping):
            raise _bad("Each seat is an object with seat, player_id and stack.")
        player_id = entry.get("player_id")
        if not isinstance(player_id, str | int) or isinstance(player_id, bool):
            raise _bad("Each seat needs a player_id.")
        entries.append(SeatEntry(_int(entry, "seat"), str(player_id), _int(entry, "stack")))
    return StartHand(tuple(entries))


def _record_card(data: Mapping[str, Any]) -> RecordCard:
    return RecordCard(
        card=_text(data, "card", optional=True),
        seat=_int(data, "seat", optional=True),
        physical_id=_text(data, "physical_id", optional=True),
        source=_source(data),
        exposed=_flag(data, "exposed"),
    )


def _burn(data: Mapping[str, Any]) -> Burn:
    return Burn(
        card=_text(data, "card", optional=True),
        physical_id=_text(data, "physical_id", optional=True),
        source=_source(data),
    )


def _codes(data: Mapping[str, Any]) -> tuple[str, ...]:
    cards = data.get("cards", [])
    if not isinstance(cards, list | tuple) or not all(isinstance(c, str) for c in cards):
        raise _bad("cards must be a list of card codes.")
    return tuple(cards)


def _show(data: Mapping[str, Any]) -> Show:
    return Show(_int(data, "seat"), _codes(data))


def _void(data: Mapping[str, Any]) -> VoidHand:
    cause = data.get("cause")
    if cause is not None and cause not in VOID_CAUSES:
        raise _bad(
            f"cause must be one of {', '.join(VOID_CAUSES)}.", allowed=", ".join(VOID_CAUSES)
        )
    return VoidHand(_required_text(data, "reason"), cause, *_approval(data))


def _kill(data: Mapping[str, Any]) -> KillHand:
    return KillHand(_int(data, "seat"), _required_text(data, "reason"), *_approval(data))


def _correct(data: Mapping[str, Any]) -> CorrectHeldCard:
    return CorrectHeldCard(_required_text(data, "card"), *_approval(data))


def _approval(data: Mapping[str, Any]) -> tuple[str | None, str | None]:
    return _text(data, "requested_by", optional=True), _text(data, "approved_by", optional=True)


_BUILDERS: dict[str, Callable[[Mapping[str, Any]], Command]] = {
    "start_hand": _start_hand,
    "record_card": _record_card,
    "burn": _burn,
    "show": _show,
    "muck": lambda data: Muck(_int(data, "seat")),
    "ask_to_see": lambda data: AskToSee(_int(data, "seat"), _int(data, "asked_by")),
    "show_mucked": lambda data: ShowMucked(_int(data, "seat"), _codes(data)),
    "award_pots": lambda data: AwardPots(),
    "void_hand": _void,
    "kill_hand": _kill,
    "correct_held_card": _correct,
    "clock_expired": lambda data: ClockExpired(_int(data, "seat")),
}


def _bad(message: str, **params: str | int) -> InvalidInputError:
    return InvalidInputError(message, code="malformed_command", params=params)


def _int(data: Mapping[str, Any], name: str, *, optional: bool = False) -> Any:
    value = data.get(name)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(f"{name} must be a whole number.", field=name)
    return value


def _text(data: Mapping[str, Any], name: str, *, optional: bool = False) -> Any:
    value = data.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise _bad(f"{name} must be text.", field=name)
    return value


def _required_text(data: Mapping[str, Any], name: str) -> str:
    value = _text(data, name)
    if not value.strip():
        raise _bad(f"{name} must not be empty.", field=name)
    return str(value)


def _flag(data: Mapping[str, Any], name: str) -> bool:
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise _bad(f"{name} must be true or false.", field=name)
    return value


def _source(data: Mapping[str, Any]) -> str:
    source = data.get("source", "tablet")
    if source not in SOURCES:
        raise _bad(f"source must be one of {', '.join(SOURCES)}.", allowed=", ".join(SOURCES))
    return str(source)
