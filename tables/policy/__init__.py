"""The one policy: who may send each command, who must approve it, and when it may run.

Every surface asks it: the API's permission classes and documentation, the `legal` and
`allowed` commands in a table's state, the services under the table lock, the shoe and
management commands. The declaration is `floor_commands.FLOOR_RULES` (the floor, review
work, custody, devices, reports, people) plus each game's commands, derived from its binding
(`game_commands`).

Functions:

- ``rule(name, game=None) -> Rule``: the declaration of one command.
- ``all_rules(game_keys=()) -> list[Rule]``: every declared command (with those games').
- ``check(actor, command, table=None, state=None, *, source="tablet", data=None,
  approved=False, facts=None) -> Rule``: raises ``PolicyError`` (a ``RuleError`` with a
  stable ``code``: ``permission_denied``, ``not_your_table``, ``needs_approval``,
  ``round_held``, ``shoe_feeds_table``, ``use_round_open``, ``not_for_the_shoe``) unless the
  actor may send it now. ``actor`` None is the service itself, or the shoe with
  ``source="shoe"``. Call it under the table lock.
- ``allowed(actor, table, state=None) -> list[str]``: the command names the actor may send at
  the table now, by the policy (the engine's ``legal`` list says which the rules take); the
  tablet's buttons.
- ``may_send(actor, rule) -> bool``: the role half only (the API's permission classes).
- ``needs_second_person(command, table, state, data) -> bool``: whether it runs only as an
  approval (voids, corrections, a paytable or tie-rule change).
- ``four_eyes.check_decider(step, *, requester, decider)``: the second person's check, one
  set of codes (``own_request``, ``approver_lacks_role``, ``request_already_decided``,
  ``request_not_found``, ``requester_unknown``).
"""

from tables.policy.checks import (
    TableFacts,
    all_rules,
    allowed,
    check,
    may_send,
    needs_second_person,
    rule,
)
from tables.policy.rules import PolicyError, Rule

__all__ = [
    "PolicyError",
    "Rule",
    "TableFacts",
    "all_rules",
    "allowed",
    "check",
    "may_send",
    "needs_second_person",
    "rule",
]
