"""A table's live state as one caller sees it: the engine's view, with the `legal` commands
narrowed to those the policy lets this caller send, and the full `allowed` list."""

from __future__ import annotations

from typing import Any

from tables import games, policy
from tables.models import Table


def caller_state(
    actor: Any, table: Table, state: Any, facts: policy.TableFacts | None = None
) -> dict[str, Any]:
    """`facts`: what the policy read of the table with the command that answers (feed,
    assignment), so the answer does not read them again."""
    view = games.binding_for(table.game).live_view(state)
    may = policy.allowed(actor, table, state, facts=facts)
    names = set(may)
    for key in ("legal", "legal_actions"):
        offered = view.get(key)
        if isinstance(offered, list):
            view[key] = [entry for entry in offered if _command_of(entry) in names]
    view["allowed"] = may
    return view


def _command_of(entry: Any) -> Any:
    if not isinstance(entry, dict):
        return entry
    return entry.get("type", entry.get("action"))
