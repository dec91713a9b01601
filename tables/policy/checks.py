"""`check` and `allowed`: the one place that answers "may this caller send this now?".

Services call `check` under the table lock with what they already hold (the actor, the table
row, the engine state); the feed status (a shoe dealing, a held round) is read once, in one
query, and only when the rule asks about it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from tables import games, roles
from tables.card_feeds import table_feed_status
from tables.models import DealerAssignment, Table
from tables.policy.floor_commands import FLOOR_RULES
from tables.policy.game_commands import (
    game_rules,
    rule_of_game,
    settings_need_second_person,
)
from tables.policy.rules import PolicyError, Rule

SHOE = "shoe"
TABLET = "tablet"
SYSTEM = "system"
FLOOR: dict[str, Rule] = {rule.name: rule for rule in FLOOR_RULES}
Actor = AbstractBaseUser | AnonymousUser | None


def rule(name: str, game: str | None = None) -> Rule:
    """The declared rule of a floor command, or of a game's command when `game` is given."""
    if name in FLOOR:
        return FLOOR[name]
    if game is None:
        raise KeyError(f"{name!r} is not a declared command")
    return rule_of_game(game, name)


def all_rules(game_keys: Iterable[str] = ()) -> list[Rule]:
    found = list(FLOOR_RULES)
    for key in game_keys:
        found.extend(game_rules(key).values())
    return found


@dataclass
class TableFacts:
    """What the table's feed says now, read at most once per check (one query), and whether
    one dealer is assigned to it. The table lock reads both with itself, in its own round
    trip (`tables.services.append_statements.lock_table_with_facts`), and passes them here."""

    table_id: int
    _status: tuple[bool, str | None] | None = field(default=None, repr=False)
    # (dealer's user id, whether that dealer is assigned to the table now), when read.
    _assignment: tuple[int, bool] | None = field(default=None, repr=False)

    def _read(self) -> tuple[bool, str | None]:
        if self._status is None:
            self._status = table_feed_status(self.table_id)
        return self._status

    @property
    def shoe_feeds(self) -> bool:
        return self._read()[0]

    @property
    def hold_reason(self) -> str | None:
        return self._read()[1]

    def assigned(self, actor: AbstractBaseUser | AnonymousUser) -> bool:
        """Whether `actor` is the dealer assigned to the table now (one query, unless read)."""
        known = self._assignment
        if known is None or known[0] != actor.pk:
            known = (int(actor.pk or 0), _assigned_now(actor.pk, self.table_id))
            self._assignment = known
        return known[1]


def may_send(actor: Actor, declared: Rule) -> bool:
    """The role half of the check (no query beyond the caller's cached roles)."""
    if actor is None:
        return True
    if not actor.is_authenticated:
        return False
    return not roles.roles_of(actor).isdisjoint(declared.roles)


def check(
    actor: Actor,
    command: str,
    table: Table | None = None,
    state: Any = None,
    *,
    source: str = TABLET,
    data: Mapping[str, Any] | None = None,
    approved: bool = False,
    facts: TableFacts | None = None,
) -> Rule:
    """Refuse (PolicyError, with a stable code) unless `actor` may send `command` now.

    `actor` None is the service itself (a management command, a simulation) or, with
    `source="shoe"`, the shoe. `approved` says the command runs as a second person's
    approval. The caller holds the table lock when it will write."""
    declared = rule(command, table.game if table is not None else None)
    if table is not None and facts is None:
        facts = TableFacts(table.pk)
    _check_sender(actor, declared, table, source, facts)
    _check_approval(declared, table, state, data, approved)
    if table is not None and facts is not None and not declared.reads and not approved:
        _check_feed(declared, facts, source)
    return declared


def _check_sender(
    actor: Actor, declared: Rule, table: Table | None, source: str, facts: TableFacts | None
) -> None:
    if declared.system_only:
        # The services (and simulations) issue it themselves; no surface sends "system".
        if source == SYSTEM or (actor is None and source != SHOE):
            return
        raise PolicyError(
            f"{declared.name} is not sent directly; open the round (POST .../rounds) instead.",
            code="use_round_open",
            status=409,
        )
    if actor is None:
        if source == SHOE and not declared.shoe:
            raise PolicyError("The shoe only deals cards.", code="not_for_the_shoe")
        return
    if not actor.is_authenticated:
        raise PolicyError("Sign in first.", code="not_authenticated", status=401)
    held = roles.roles_of(actor)
    if held.isdisjoint(declared.roles):
        raise PolicyError(not_your_role(declared), code="permission_denied")
    if (
        table is not None
        and facts is not None
        and _needs_assignment(actor, declared)
        and not facts.assigned(actor)
    ):
        raise PolicyError(
            f"You are not assigned to {table.name}; a dealer acts only at his own table.",
            code="not_your_table",
        )


def not_your_role(declared: Rule) -> str:
    """The sentence for a caller whose role may not send `declared` (API and service alike)."""
    if declared.roles == {roles.PIT_BOSS}:
        return "Only a pit boss may do this."
    who = " or the ".join(role.replace("_", " ") for role in sorted(declared.roles))
    if not who:
        return "Nobody may send this."
    return f"Your role does not allow this: only the {who} may do it."


def _check_approval(
    declared: Rule, table: Table | None, state: Any, data: Mapping[str, Any] | None, approved: bool
) -> None:
    if approved:
        return
    if declared.approval_only:
        raise PolicyError(
            f"{declared.name} needs a pit boss's approval: ask for it as a correction.",
            code="needs_approval",
            status=409,
        )
    if table is None or declared.game is None or data is None:
        return
    binding = games.binding_for(declared.game)
    if declared.name != binding.settings_command:
        return
    changed = settings_need_second_person(binding, state, data.get("settings"))
    if changed:
        raise PolicyError(
            f"Changing {' and '.join(changed)} needs a second pit boss: ask for it as a "
            "correction.",
            code="needs_approval",
            status=409,
        )


def _check_feed(declared: Rule, facts: TableFacts, source: str) -> None:
    if not declared.while_held and facts.hold_reason is not None:
        raise PolicyError(f"The round is held: {facts.hold_reason}.", code="round_held", status=409)
    if not declared.while_shoe_feeds and source != SHOE and facts.shoe_feeds:
        raise PolicyError(
            "The shoe is reading this table's cards; do not enter them on the tablet.",
            code="shoe_feeds_table",
            status=409,
        )


def is_assigned(actor: AbstractBaseUser | AnonymousUser, table: Table) -> bool:
    """Whether `actor` is the dealer now assigned to `table` (one query)."""
    return _assigned_now(actor.pk, table.pk)


def _assigned_now(dealer_id: Any, table_id: int) -> bool:
    return DealerAssignment.objects.filter(
        dealer_id=dealer_id, table_id=table_id, ended_at__isnull=True
    ).exists()


def needs_second_person(command: str, table: Table, state: Any, data: Mapping[str, Any]) -> bool:
    """Whether this command, with this data, runs only as a second person's approval."""
    declared = rule(command, table.game)
    if declared.approval_only:
        return True
    binding = games.binding_for(table.game)
    if declared.name != binding.settings_command:
        return False
    return bool(settings_need_second_person(binding, state, data.get("settings")))


def allowed(
    actor: Actor, table: Table, state: Any = None, *, facts: TableFacts | None = None
) -> list[str]:
    """The commands `actor` may send at `table` now, by the policy alone (the engine's
    `legal` list says which the rules take): what a screen offers as buttons. `facts` are
    the table's, when the caller read them under the lock it still held for this answer."""
    if facts is None or facts.table_id != table.pk:
        facts = TableFacts(table.pk)
    known = facts

    def at_table() -> bool:
        return actor is not None and known.assigned(actor)

    names = []
    candidates = [r for r in FLOOR_RULES if r.at_table] + list(game_rules(table.game).values())
    for declared in candidates:
        if declared.system_only or declared.approval_only:
            continue
        if not _sender_may(actor, declared, at_table):
            continue
        if not declared.while_held and facts.hold_reason is not None:
            continue
        if not declared.while_shoe_feeds and facts.shoe_feeds:
            continue
        names.append(declared.name)
    return names


def _sender_may(actor: Actor, declared: Rule, at_table: Callable[[], bool]) -> bool:
    if actor is None:
        return True
    if not may_send(actor, declared):
        return False
    return not _needs_assignment(actor, declared) or at_table()


def _needs_assignment(actor: AbstractBaseUser | AnonymousUser, declared: Rule) -> bool:
    """A dealer acts only at his table; a pit boss at any."""
    held = roles.roles_of(actor)
    return declared.own_table and roles.DEALER in declared.roles and roles.PIT_BOSS not in held
