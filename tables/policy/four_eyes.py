"""Four eyes, once: every two-person step (corrections, voids of slips and rounds, bindings,
holds, settings that need it, role grants) is decided here, with one set of codes.

The requester and the decider are signed-in users, never typed names; the decider holds the
role the decision step declares and is a different person from the requester.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from tables import roles
from tables.policy.checks import rule
from tables.policy.floor_commands import DECISIONS
from tables.policy.rules import PolicyError

OWN_REQUEST = "own_request"
DECIDER_LACKS_ROLE = "approver_lacks_role"
ALREADY_DECIDED = "request_already_decided"
NOT_FOUND = "request_not_found"
NO_REQUESTER = "requester_unknown"


def check_decider(
    step: str,
    *,
    requester: AbstractBaseUser | None,
    decider: AbstractBaseUser | AnonymousUser | None,
) -> None:
    """Refuse unless `decider` may take the decision `step` on `requester`'s request."""
    declared = rule(step)
    if step not in DECISIONS:
        raise KeyError(f"{step!r} is not a decision step")
    if decider is None or not decider.is_authenticated:
        raise PolicyError("Sign in to decide.", code="not_authenticated", status=401)
    who = " or ".join(role.replace("_", " ") for role in sorted(declared.roles))
    if roles.roles_of(decider).isdisjoint(declared.roles):
        raise PolicyError(f"Only a {who} may decide this.", code=DECIDER_LACKS_ROLE)
    if requester is None:
        raise PolicyError("Nobody has signed this request yet.", code=NO_REQUESTER, status=409)
    if requester.pk == decider.pk:
        raise PolicyError(
            f"You cannot decide on your own request; ask another {who}.", code=OWN_REQUEST
        )


def already_decided(what: str) -> PolicyError:
    return PolicyError(f"This {what} was already decided.", code=ALREADY_DECIDED, status=409)


def not_found(what: str) -> PolicyError:
    return PolicyError(f"There is no such {what}.", code=NOT_FOUND, status=404)
