"""Commands: one frozen record per dealer or pit-boss action. `type` is the name on the wire.

Card fields hold the text as entered or read (validated by decide, so `8O` is refused with
`invalid_card` there); None stands for a face-down card the tablet does not know yet.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from tables.engine import command_json
from tables.engine.command_json import CommandShape


@dataclass(frozen=True)
class StartRound:
    type: ClassVar[str] = "start_round"


@dataclass(frozen=True)
class PlaceWager:
    type: ClassVar[str] = "place_wager"
    box: int
    amount: int
    seat: int | None = None  # defaults to the box's own seat


@dataclass(frozen=True)
class ChangeWager:
    type: ClassVar[str] = "change_wager"
    box: int
    amount: int


@dataclass(frozen=True)
class CancelWager:
    type: ClassVar[str] = "cancel_wager"
    box: int


@dataclass(frozen=True)
class RecordCard:
    """A card that left the shoe. `target` is what the tablet says it is for, if it says."""

    type: ClassVar[str] = "record_card"
    card: str | None
    physical_id: str | None = None
    source: str = "tablet"
    face_up: bool | None = None  # None: as the rules deal it; True/False: as it was seen dealt
    target: str | None = None  # None (whoever is due), "box", "bank" or "burn"
    box: int | None = None  # with target "box"


@dataclass(frozen=True)
class RequestDraw:
    type: ClassVar[str] = "request_draw"
    box: int
    face_down: bool = False


@dataclass(frozen=True)
class Stand:
    type: ClassVar[str] = "stand"
    box: int


@dataclass(frozen=True)
class Reveal:
    type: ClassVar[str] = "reveal"
    box: int
    card: str | None = None  # required when the face-down card is unknown (tablet)


@dataclass(frozen=True)
class DeclareBust:
    type: ClassVar[str] = "declare_bust"
    box: int
    card: str | None = None  # the face-down card, when the tablet does not know it yet


@dataclass(frozen=True)
class SitOut:
    """With `exposed_player_card = player_option`: take the stake back after an exposed card."""

    type: ClassVar[str] = "sit_out"
    box: int


@dataclass(frozen=True)
class RevealBank:
    type: ClassVar[str] = "reveal_bank"
    card: str | None = None


@dataclass(frozen=True)
class ExposeBankCard:
    """The bank's face-down card was seen during play (a slip of the dealer's hand)."""

    type: ClassVar[str] = "expose_bank_card"
    card: str | None = None


@dataclass(frozen=True)
class BankStand:
    type: ClassVar[str] = "bank_stand"


@dataclass(frozen=True)
class IdentifyCard:
    """Enter an unknown face-down card at settlement; `box` None means the bank's card."""

    type: ClassVar[str] = "identify_card"
    box: int | None
    card: str


@dataclass(frozen=True)
class CorrectHeldCard:
    """The shoe misread a card and held the round: the dealer enters the true card."""

    type: ClassVar[str] = "correct_held_card"
    card: str
    requested_by: str
    approved_by: str


@dataclass(frozen=True)
class MoveCard:
    """A card of the initial deal lies on the wrong box: move it (or swap two), with approval."""

    type: ClassVar[str] = "move_card"
    from_box: int
    to_box: int
    requested_by: str
    approved_by: str


@dataclass(frozen=True)
class RecordPayout:
    """What the dealer actually paid (+) or collected (-) on a box, net of the stake."""

    type: ClassVar[str] = "record_payout"
    box: int
    amount: int


@dataclass(frozen=True)
class Reshuffle:
    type: ClassVar[str] = "reshuffle"


@dataclass(frozen=True)
class CutCard:
    type: ClassVar[str] = "cut_card"


@dataclass(frozen=True)
class VoidRound:
    type: ClassVar[str] = "void_round"
    reason: str
    requested_by: str
    approved_by: str


@dataclass(frozen=True)
class VoidBox:
    type: ClassVar[str] = "void_box"
    box: int
    reason: str
    requested_by: str
    approved_by: str


@dataclass(frozen=True)
class CorrectPayout:
    """A payout record entered wrong: the figure the dealer really paid, with approval."""

    type: ClassVar[str] = "correct_payout"
    box: int
    amount: int
    reason: str
    requested_by: str
    approved_by: str


@dataclass(frozen=True)
class UpdateSettings:
    type: ClassVar[str] = "update_settings"
    settings: Mapping[str, Any] = field(default_factory=dict)


Command = (
    StartRound
    | PlaceWager
    | ChangeWager
    | CancelWager
    | RecordCard
    | RequestDraw
    | Stand
    | Reveal
    | DeclareBust
    | SitOut
    | RevealBank
    | ExposeBankCard
    | BankStand
    | IdentifyCard
    | CorrectHeldCard
    | MoveCard
    | RecordPayout
    | CorrectPayout
    | Reshuffle
    | CutCard
    | VoidRound
    | VoidBox
    | UpdateSettings
)

COMMAND_TYPES: dict[str, type[Command]] = {
    cls.type: cls
    for cls in (
        StartRound,
        PlaceWager,
        ChangeWager,
        CancelWager,
        RecordCard,
        RequestDraw,
        Stand,
        Reveal,
        DeclareBust,
        SitOut,
        RevealBank,
        ExposeBankCard,
        BankStand,
        IdentifyCard,
        CorrectHeldCard,
        MoveCard,
        RecordPayout,
        CorrectPayout,
        Reshuffle,
        CutCard,
        VoidRound,
        VoidBox,
        UpdateSettings,
    )
}

# The declaration the one JSON parser reads, and the API routes and reflects.
COMMANDS: dict[str, CommandShape] = {name: CommandShape(cls) for name, cls in COMMAND_TYPES.items()}


def command_from_json(command_type: str, data: Mapping[str, Any] | None) -> Command:
    """Build a command from a JSON body, e.g. `command_from_json("stand", {"box": 3})`."""
    command: Command = command_json.command_from_json(COMMANDS, command_type, data)
    return command
