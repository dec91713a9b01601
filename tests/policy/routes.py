"""Every API route with the command the policy declares for each of its methods, and a URL
and body to call it with at the policy floor."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver

from tables import policy
from tables.api.permissions import declared_rule
from tables.policy.rules import Rule
from tests.policy.floor import PolicyFloor

# Bodies that pass the views' parsing, so the service's own check (a dealer at another table)
# is what answers; the rest of the endpoints take an empty body for the matrix.
BODIES: dict[str, dict[str, Any]] = {
    "seat.sit": {"seat": 1, "player": "ana", "buy_in": 100},
    "seat.add_chips": {"seat": 1, "amount": 100},
    "seat.leave": {"seat": 1},
    "correction.request": {"command": {"type": "void_round", "data": {}}, "reason": "misdeal"},
    "custody.buy_in": {"amount": 100},
    "table.command": {"type": "reshuffle", "data": {}},
    "table.assign_dealer": {"dealer": "assigned_dealer"},
    "slip.confirm": {},
}


@dataclass(frozen=True)
class Endpoint:
    route: str
    method: str
    rule: Rule
    table_scoped: bool

    def url(self, floor: PolicyFloor) -> str:
        table = floor.table_for(self.rule.game)
        values = {
            "table_id": str(table.pk),
            "number": str(floor.fill_number),
            "slip_type": "fill",
            "fmt": "json",
            "run_id": str(uuid.UUID(int=1)),
        }

        def fill(match: re.Match[str]) -> str:
            return values.get(match.group(2), "1")

        return "/" + re.sub(r"<(?:(\w+):)?(\w+)>", fill, self.route)

    def body(self) -> dict[str, Any]:
        return BODIES.get(self.rule.name, {})


def _patterns(resolvers: list[Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for entry in resolvers:
        if isinstance(entry, URLResolver):
            yield from _patterns(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), entry.callback


def api_endpoints() -> list[Endpoint]:
    found = []
    for route, callback in _patterns(get_resolver().url_patterns):
        view = getattr(callback, "cls", None)
        if not route.startswith("api/") or view is None or not hasattr(view, "permission_classes"):
            continue
        initkwargs = getattr(callback, "initkwargs", {})
        instance = view(**initkwargs)
        for method in ("GET", "POST"):
            if not hasattr(instance, method.lower()):
                continue
            rule = declared_rule(instance, method)
            if rule is None:
                continue
            found.append(Endpoint(route, method, rule, "<int:table_id>" in route))
    return found


def undeclared_endpoints() -> list[str]:
    """API routes (other than sign-in, health and the schema) whose methods declare nothing."""
    missing = []
    for route, callback in _patterns(get_resolver().url_patterns):
        view = getattr(callback, "cls", None)
        if not route.startswith("api/") or view is None:
            continue
        # Signing in and out is every caller's own business, not a floor command.
        if route in ("api/health", "api/schema/", "api/docs/") or route.startswith("api/auth/"):
            continue
        instance = view(**getattr(callback, "initkwargs", {}))
        for method in ("GET", "POST"):
            if hasattr(instance, method.lower()) and declared_rule(instance, method) is None:
                missing.append(f"{method} /{route}")
    return missing


def all_declared() -> list[Rule]:
    return policy.all_rules(("siete_y_medio", "seven_card_stud"))
