"""Commands a Stud table accepts, and their construction from a JSON body.

Betting amounts are the player's **total bet on the current street after the action**
("raise to 40"), the same figure the live view lists as a legal action's `amount`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tables.engine import command_json
from tables.engine.command_json import NOT_EMPTY, ONE_OF, CommandShape

SOURCES = ("tablet", "shoe", "simulation")
VOID_CAUSES = ("misdeal", "fouled_deck", "device_failure")


@dataclass(frozen=True)
class SeatEntry:
    seat: int
    player_id: str
    stack: int


@dataclass(frozen=True)
class StartHand:
    seats: tuple[SeatEntry, ...] = field(metadata={NOT_EMPTY: True})


@dataclass(frozen=True)
class RecordCard:
    """A card leaving the deck.

    `card` None = face down and not read; `seat` None = the engine gives it to whoever is due.
    """

    card: str | None
    seat: int | None = None
    physical_id: str | None = None
    source: str = field(default="tablet", metadata={ONE_OF: SOURCES})
    exposed: bool = False  # a card due face down that was dealt face up


@dataclass(frozen=True)
class Burn:
    card: str | None = None
    physical_id: str | None = None
    source: str = field(default="tablet", metadata={ONE_OF: SOURCES})


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

    reason: str = field(metadata={NOT_EMPTY: True})
    cause: str | None = field(default=None, metadata={ONE_OF: VOID_CAUSES})
    requested_by: str | None = None
    approved_by: str | None = None


@dataclass(frozen=True)
class ClockExpired:
    """The pit boss called the clock on `seat` and time ran out (TDA 29)."""

    seat: int


@dataclass(frozen=True)
class KillHand:
    seat: int
    reason: str = field(metadata={NOT_EMPTY: True})
    requested_by: str | None = None
    approved_by: str | None = None


@dataclass(frozen=True)
class CorrectHeldCard:
    """The shoe read a card already seen and held the hand; the dealer enters the true card."""

    card: str = field(metadata={NOT_EMPTY: True})
    requested_by: str | None = None
    approved_by: str | None = None


ACTION_KINDS = ("fold", "check", "call", "bet", "complete", "raise", "bring_in")

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


# The declaration the one JSON parser reads, and the API routes and reflects: each betting
# action is an Action whose `kind` its name fixes.
COMMANDS: dict[str, CommandShape] = {
    "record_card": CommandShape(RecordCard),
    "burn": CommandShape(Burn),
    "show": CommandShape(Show),
    "muck": CommandShape(Muck),
    "award_pots": CommandShape(AwardPots),
    "clock_expired": CommandShape(ClockExpired),
    "ask_to_see": CommandShape(AskToSee),
    "show_mucked": CommandShape(ShowMucked),
    **{kind: CommandShape(Action, {"kind": kind}) for kind in ACTION_KINDS},
    "start_hand": CommandShape(StartHand),
    "void_hand": CommandShape(VoidHand),
    "kill_hand": CommandShape(KillHand),
    "correct_held_card": CommandShape(CorrectHeldCard),
}


def command_from_json(kind: str, data: Mapping[str, Any] | None) -> Command:
    """Build a command from its type name and JSON body; malformed input is refused."""
    command: Command = command_json.command_from_json(COMMANDS, kind, data)
    return command
