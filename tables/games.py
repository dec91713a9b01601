"""Which engine plays which game: the one seam between the services and the pure engines.

A binding adapts an engine to what the services need (settings, commands from JSON, the
live and audit views, and where the current round stands). Tests may register their own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tables.engine.command_json import CommandShape
from tables.engine.errors import InvalidInputError
from tables.engine.game import Game
from tables.engine.round_summary import RoundSummary
from tables.engine.state_codec import StateCodec

ROUND_NONE = "none"
ROUND_OPEN = "open"
ROUND_SETTLED = "settled"
ROUND_CLOSED = "closed"
ROUND_VOIDED = "voided"
ROUND_FINISHED = frozenset({ROUND_CLOSED, ROUND_VOIDED})

# A shift's window of seqs (opener to closer) and what a fast path sums in it: the rounds'
# summaries and the seq of each settled round's settlement.
Window = tuple[int, int]
SummedRounds = tuple[list[RoundSummary], dict[int, int]]


def no_amounts(round_id: str, state: Mapping[str, Any], voided: bool) -> RoundSummary:
    """A game whose rounds carry no money the reports add up: each round only counts."""
    return RoundSummary(round_id=round_id, handle=0, house_net=0, voided=voided)


@dataclass(frozen=True)
class GameBinding:
    key: str
    engine: Game[Any, Any]
    # Validates a settings mapping and returns it complete (defaults filled in).
    parse_settings: Callable[[Mapping[str, Any]], dict[str, Any]]
    command_from_json: Callable[[str, Mapping[str, Any]], Any]
    # The command that opens the next round at this table (Stud: from the seated players).
    open_round_command: Callable[[Any], Any]
    live_view: Callable[[Any], dict[str, Any]]
    audit_view: Callable[[Any], dict[str, Any]]
    # One of the ROUND_* words above, for the round the state is in (or last was in).
    round_status: Callable[[Any], str]
    # The canonical stored form of the engine's state, for snapshots (None: always replayed).
    state_codec: StateCodec | None = None
    # The event type with which the engine opens a round (a hand): the services then open
    # the matching Round row, closing a settled one first.
    round_opened_event: str = "round.opened"
    # Game-specific projections after each command (Stud: the seats' stacks after a hand).
    project_table: Callable[[Any, Any, Any], None] | None = None
    # Commands a service issues itself and a tablet may not send (Stud's start_hand: the
    # stacks come from the seats, not from the request).
    service_commands: frozenset[str] = frozenset()
    # Commands only a pit boss may send (Stud: showing a mucked hand to the table).
    pit_boss_commands: frozenset[str] = frozenset()
    # Commands that only a four-eyes correction may run (never straight from a tablet)...
    approval_commands: frozenset[str] = frozenset()
    # ...and those among them whose data carries `requested_by` and `approved_by` names.
    approval_fields: frozenset[str] = frozenset()
    # What a screen asks the requester for each of them, in order (the names are filled in
    # by the correction service): "box", "seat", "from_box", "to_box", "amount", "card",
    # "reason" (the request's own reason, when the command carries one too).
    correction_fields: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # What the rules take now, from the live view, as command entries ({"type", box or seat,
    # amount...}): what a screen turns into buttons once the policy has kept the caller's own.
    legal_entries: Callable[[dict[str, Any]], list[dict[str, Any]]] = lambda view: [
        dict(entry) for entry in view.get("legal") or []
    ]
    # The deck a tablet picks cards from, suit by suit: (suit code, suit's name, its cards).
    card_suits: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    # Every command name the engine takes from JSON (the policy declares each one).
    command_types: frozenset[str] = frozenset()
    # Commands that put a card on the table: the shoe's job while one feeds the table.
    card_commands: frozenset[str] = frozenset({"record_card", "burn"})
    # The command that changes the house settings, the settings whose change needs a second
    # pit boss, and how to read the settings in force from the state.
    settings_command: str | None = None
    four_eyes_settings: frozenset[str] = frozenset()
    settings_of: Callable[[Any], Mapping[str, Any]] | None = None
    # The values a choice setting takes (a form offers them as a list), by setting name.
    setting_choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # For a game the house banks: the exact edge and variance of one unit staked under a
    # settings mapping (theoretical win and its band). None for a game the house only rakes.
    unit_risk: Callable[[Mapping[str, Any]], tuple[Fraction, Fraction]] | None = None
    # The settings a floor shows as the table's limits, in order (Siete: min and max stake).
    limit_keys: tuple[str, ...] = ()
    # What a table shift report prints for this game, in order: the shift's figures and the
    # round summary's rows (the summary holds every game's rows; the others do not apply).
    report_figures: tuple[str, ...] = ("drop", "drop_source", "estimated_drop", "revenue")
    report_round_rows: tuple[str, ...] = ("hands_played", "rounds_voided", "handle")
    # The card-reading shoe: the deck it holds ("spanish", "french"; None: no shoe deals
    # here), the command a card read (or entered, `source` "tablet") becomes for whoever the
    # state says is due, and the command for the cut card (None: the game has none).
    shoe_deck: str | None = None
    shoe_card_command: Callable[[Any, str, str | None, str], Any] | None = None
    shoe_cut_card_command: Callable[[], Any] | None = None
    # The name the reports and screens print for the game (a lazily translated text; None:
    # the key, humanised).
    label: Any = None
    # The reports' reading of one finished round from its audit view: (round id, the view's
    # `summary_keys` parts, whether the round was voided) -> its summary.
    round_summary: Callable[[str, Mapping[str, Any], bool], RoundSummary] = no_amounts
    summary_keys: tuple[str, ...] = ()
    # The same reading done by PostgreSQL over a table's shift (table, window), so the audit
    # views' JSON is not decoded in Python; None: the Python reading serves every database.
    summed_rounds: Callable[[Any, Window], SummedRounds] | None = None
    # The winning hand classes its paytable pays, in order (the reports' payouts by class).
    payout_classes: tuple[str, ...] = ()
    # Every command the game takes, as declared for the one JSON parser: the API gives each
    # its own documented endpoint under /tables/<id>/<route_prefix>/ (the key when None),
    # except the service's own commands and those only a correction sends (`desk_commands`).
    commands: Mapping[str, CommandShape] = field(default_factory=dict)
    route_prefix: str | None = None
    desk_commands: frozenset[str] = frozenset()

    @property
    def routed_commands(self) -> tuple[str, ...]:
        """The commands with an endpoint of their own, in declaration order."""
        hidden = self.service_commands | self.desk_commands
        return tuple(name for name in self.commands if name not in hidden)

    @property
    def house_banked(self) -> bool:
        """The house banks the hands (and earns the custody win) exactly where it has an edge;
        a game it only rakes earns the rake (RULES.md §2.4)."""
        return self.unit_risk is not None


_REGISTRY: dict[str, GameBinding] = {}
_LOADERS: dict[str, Callable[[], GameBinding]] = {}


def register(binding: GameBinding) -> None:
    _REGISTRY[binding.key] = binding


def register_loader(key: str, loader: Callable[[], GameBinding]) -> None:
    """Engines register lazily so that importing the services stays cheap."""
    _LOADERS[key] = loader


def unregister(key: str) -> None:
    _REGISTRY.pop(key, None)


def known_keys() -> tuple[str, ...]:
    """Every game this floor can play, the engines' own first (in registration order)."""
    return tuple(dict.fromkeys([*_LOADERS, *_REGISTRY]))


def every_binding() -> tuple[GameBinding, ...]:
    return tuple(binding_for(key) for key in known_keys())


def house_banks(game_key: str) -> bool:
    """Whether the house banks the game (False for a key no engine plays, e.g. an old report's)."""
    binding = find_binding(game_key)
    return binding is not None and binding.house_banked


def payout_classes(game_key: str) -> tuple[str, ...]:
    """The hand classes the game's paytable pays, in its order; none for a raked game or a key
    no engine plays (an old report's)."""
    binding = find_binding(game_key)
    return binding.payout_classes if binding is not None else ()


def find_binding(game_key: str) -> GameBinding | None:
    """The game's binding, or None where no engine plays it."""
    if game_key not in _REGISTRY and game_key in _LOADERS:
        register(_LOADERS[game_key]())
    return _REGISTRY.get(game_key)


def binding_for(game_key: str) -> GameBinding:
    if game_key not in _REGISTRY and game_key in _LOADERS:
        register(_LOADERS[game_key]())
    try:
        return _REGISTRY[game_key]
    except KeyError:
        raise InvalidInputError(
            f"No engine plays the game {game_key!r} on this floor.", code="unknown_game"
        ) from None
