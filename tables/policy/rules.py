"""What the policy says about one command, and how it refuses."""

from __future__ import annotations

from dataclasses import dataclass

from tables import roles
from tables.engine.errors import RuleError

FLOOR_STAFF = frozenset({roles.DEALER, roles.PIT_BOSS})
PIT_BOSS_ONLY = frozenset({roles.PIT_BOSS})


class PolicyError(RuleError):
    """The policy refuses the command (who sends it, or when); nothing is recorded."""

    code = "permission_denied"
    status = 403


@dataclass(frozen=True)
class Rule:
    """Who may send `name`, whether a second person must approve it, and when it may run.

    `roles` may send it; a dealer among them only at the table assigned to them when
    `own_table`. `second_person` names the role of the different person who must approve
    (the command then runs only as that approval). `while_held`: allowed while the round is
    held for the pit boss; `while_shoe_feeds`: allowed from a tablet while a shoe deals the
    table's cards. `shoe`: the shoe itself may send it. `system_only`: only the service
    itself issues it. `reads`: a read, which changes nothing.
    """

    name: str
    summary: str
    roles: frozenset[str]
    own_table: bool = True
    second_person: str | None = None
    while_held: bool = False
    while_shoe_feeds: bool = True
    shoe: bool = False
    system_only: bool = False
    reads: bool = False
    at_table: bool = False
    game: str | None = None

    @property
    def approval_only(self) -> bool:
        return self.second_person is not None

    def sentence(self) -> str:
        """Who may call it, for the API documentation."""
        if self.system_only:
            return "Not sent directly: the service issues it."
        who = ", ".join(role.replace("_", " ") for role in sorted(self.roles)) or "nobody"
        parts = [f"Who may call: {who}."]
        if roles.DEALER in self.roles and self.own_table:
            parts.append("A dealer only at the table assigned to them.")
        if self.second_person:
            parts.append(
                f"Needs a second person: a different {self.second_person.replace('_', ' ')} "
                "approves it."
            )
        if not self.reads and not self.while_held:
            parts.append("Refused while the round is held for the pit boss.")
        if not self.while_shoe_feeds:
            parts.append("Refused from a tablet while a shoe deals the table's cards.")
        return " ".join(parts)
