"""Seven-Card Stud, fixed limit, house raked (RULES.md section 2): the pure rules engine.

``STUD`` is the :class:`tables.engine.game.Game`. A hand runs: ``StartHand`` (antes are posted
with it), one ``RecordCard`` per card in dealing order (``seat`` may be left out: the engine
knows who is due; ``card`` None is a face-down card not read), optional ``Burn`` before 4th to
7th street, betting ``Action`` commands (amounts are street totals, as listed by
``live_view(state)["legal_actions"]``), ``Show``/``Muck`` in showdown order (``AskToSee``
by a caller binds the last aggressor to show; ``ShowMucked`` is the pit boss showing a mucked
hand), then ``AwardPots``.
``ClockExpired`` may come whenever a player is to act. ``VoidHand``, ``KillHand`` and
``CorrectHeldCard`` (a duplicate read by the shoe holds the hand until corrected or voided) need
``requested_by`` and a different ``approved_by``.

Events (``Event.type``): ``hand.started``, ``ante.posted``, ``card.dealt``, ``card.community``,
``card.burned``, ``card.dead``, ``card.premature``, ``card.held``, ``card.corrected``,
``street.opened``, ``action.taken``,
``action.held``, ``action.released``, ``betting.closed`` (with uncalled bets returned),
``hand.shown``, ``hand.mucked``, ``hand.killed``, ``pots.awarded`` (pots, rake, shares, payouts)
and ``hand.voided`` (refunds). Each carries JSON-ready data; ``evolve`` never recomputes a
choice the rules made, it reads it from the event.

Refusals are :class:`~tables.engine.errors.RuleError` (``code``, ``message``, ``params``;
none names a hole card) with codes such as ``invalid_card``,
``duplicate_card``, ``card_not_due``, ``unknown_up_card``, ``not_your_turn``, ``wrong_amount``,
``amount_required``, ``insufficient_chips``, ``raise_cap_reached``, ``betting_not_reopened``,
``cannot_check``, ``bring_in_required``, ``unknown_cards_at_showdown``, ``must_show``,
``showdown_not_finished``, ``substantial_action``, ``hand_held``, ``approval_required``,
``approver_must_differ``, ``hand_over`` and ``hand_in_progress``.
"""

from __future__ import annotations

from collections.abc import Mapping

from tables.engine.game import Event, JSONValue
from tables.engine.stud.commands import Command, command_from_json
from tables.engine.stud.decide import decide
from tables.engine.stud.evolve import evolve
from tables.engine.stud.settings import StudSettings
from tables.engine.stud.state import StudState
from tables.engine.stud.view import audit_view, live_view


class StudGame:
    """The Stud engine as a `tables.engine.game.Game`."""

    name = "seven_card_stud"

    def new_state(self, settings: Mapping[str, JSONValue]) -> StudState:
        return StudState(StudSettings.from_mapping(settings))

    def decide(self, state: StudState, command: Command) -> tuple[Event, ...]:
        return decide(state, command)

    def evolve(self, state: StudState, event: Event) -> StudState:
        return evolve(state, event)


STUD = StudGame()

__all__ = [
    "STUD",
    "Command",
    "StudGame",
    "StudSettings",
    "StudState",
    "audit_view",
    "command_from_json",
    "decide",
    "evolve",
    "live_view",
]
