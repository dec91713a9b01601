"""A table's house settings on the pit boss's page: the form (the limits and the settings that
need a second pit boss, as the game's binding names them), the settings a form sends, where
the change goes, and the change log (who, when, old → new).

The page never decides who may change what: a change the policy says needs a second pit boss
becomes a request in the approvals queue, any other goes to the engine as the game's own
settings command, and the services check both again under the table lock.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.http import QueryDict

from tables import games, policy
from tables.engine.errors import InvalidInputError
from tables.models import Table, TableEvent
from tables.pages import floor_approvals
from tables.pages.setting_changes import SettingChange, changes, choice_label, setting_label
from tables.services import engine_state
from tables.services.commands import table_command_from_json

CREATED, CHANGED, APPROVED = "table.created", "settings.changed", "correction.approved"


@dataclass(frozen=True)
class SettingField:
    name: str  # the form field: a setting, or "paytable.real" for one entry of a mapping
    label: str
    value: str
    number: bool
    choices: tuple[tuple[str, str], ...]  # (value, label); empty: typed in
    second_pit_boss: bool  # changing it needs another pit boss's approval


def settings_in_force(table: Table) -> dict[str, Any] | None:
    """The settings the engine plays now, or None where the game has no settings command."""
    binding = games.binding_for(table.game)
    if binding.settings_command is None or binding.settings_of is None:
        return None
    return dict(binding.settings_of(engine_state.current_state(table)))


def form_fields(table: Table, current: Mapping[str, Any]) -> list[SettingField]:
    """The limits first, then the settings a second pit boss approves, from the binding."""
    binding = games.binding_for(table.game)
    fields: list[SettingField] = []
    for name in (*binding.limit_keys, *sorted(binding.four_eyes_settings)):
        second = name in binding.four_eyes_settings
        value = current.get(name)
        if isinstance(value, Mapping):
            for key, entry in value.items():
                fields.append(_field(f"{name}.{key}", entry, (), second))
        else:
            fields.append(_field(name, value, binding.setting_choices.get(name, ()), second))
    return fields


def _field(name: str, value: Any, choices: tuple[str, ...], second: bool) -> SettingField:
    return SettingField(
        name=name,
        label=setting_label(name),
        value="" if value is None else str(value),
        number=isinstance(value, int) and not isinstance(value, bool),
        choices=tuple((choice, choice_label(choice)) for choice in choices),
        second_pit_boss=second,
    )


def settings_from_form(form: QueryDict, table: Table, current: Mapping[str, Any]) -> dict[str, Any]:
    """The settings in force with the form's values in place of theirs: the engine's command
    takes the whole mapping, so what the form does not show stays as it is."""
    proposed: dict[str, Any] = {
        key: dict(value) if isinstance(value, Mapping) else value for key, value in current.items()
    }
    for field in form_fields(table, current):
        raw = form.get(field.name, field.value).strip()
        value: Any = raw
        if field.number:
            if not raw.isdigit():
                raise InvalidInputError(
                    f"{field.label}: must be a whole number, not {raw!r}.",
                    code="invalid_setting",
                    params={"setting": field.label},
                )
            value = int(raw)
        parent, _dot, key = field.name.partition(".")
        if key:
            proposed[parent][key] = value
        else:
            proposed[parent] = value
    return proposed


def change_settings(*, table: Table, form: QueryDict, by: User) -> bool:
    """Send the form's settings; True when they wait for a second pit boss's approval."""
    binding = games.binding_for(table.game)
    current = settings_in_force(table)
    if binding.settings_command is None or current is None:
        raise InvalidInputError(
            "This game's settings are fixed when the table is created.", code="no_settings"
        )
    data = {"settings": settings_from_form(form, table, current)}
    if not changes(current, data["settings"]):
        raise InvalidInputError("Nothing was changed.", code="nothing_changed")
    state = engine_state.current_state(table)
    if policy.needs_second_person(binding.settings_command, table, state, data):
        reason = form.get("reason", "").strip()[:500]
        floor_approvals.ask_settings_change(table=table, data=data, reason=reason, by=by)
        return True
    table_command_from_json(
        table_id=table.pk, command_type=binding.settings_command, data=data, actor=by
    )
    return False


@dataclass(frozen=True)
class LogEntry:
    seq: int
    recorded_at: datetime
    created: bool  # the settings the table was created with
    changed_by: str | None
    asked_by: str | None  # who asked, when a second pit boss approved the change
    changes: tuple[SettingChange, ...]


def settings_log(table: Table, limit: int = 20) -> list[LogEntry]:
    """The table's settings as created, then every change with old → new, newest first."""
    rows = (
        TableEvent.objects.filter(table=table, type__in=(CREATED, CHANGED, APPROVED))
        .select_related("actor")
        .order_by("seq")
    )
    entries: list[LogEntry] = []
    previous: Mapping[str, Any] = {}
    approvals: dict[int, str] = {}
    for row in rows:
        if row.type == APPROVED:
            approvals[row.seq] = str(row.payload.get("requested_by") or "")
            continue
        settings = row.payload.get("settings") or {}
        entries.append(
            LogEntry(
                seq=row.seq,
                recorded_at=row.recorded_at,
                created=row.type == CREATED,
                changed_by=row.actor.get_username() if row.actor else None,
                # The approval is recorded just before the change it runs.
                asked_by=approvals.get(row.seq - 1) or None,
                changes=tuple(changes(previous, settings)),
            )
        )
        previous = settings
    return entries[::-1][:limit]
