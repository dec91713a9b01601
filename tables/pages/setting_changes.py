"""What a settings change changes, old → new, in words a pit boss reads: the approvals queue
and a table's change log say it the same way."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

ARROW = " → "

# The settings' names as a pit boss reads them; a setting not listed reads as its words.
SETTING_LABELS: dict[str, Promise] = {
    "min_stake": gettext_lazy("Minimum stake"),
    "max_stake": gettext_lazy("Maximum stake"),
    "chip": gettext_lazy("Smallest chip"),
    "ties": gettext_lazy("Tie rule"),
    "paytable": gettext_lazy("Paytable"),
    "paytable.real": gettext_lazy("Paytable: real"),
    "paytable.siete_y_medio": gettext_lazy("Paytable: siete y medio"),
    "paytable.puntaje": gettext_lazy("Paytable: points"),
    "small_bet": gettext_lazy("Small bet"),
    "big_bet": gettext_lazy("Big bet"),
    "ante": gettext_lazy("Ante"),
    "bring_in": gettext_lazy("Bring-in"),
}
CHOICE_LABELS: dict[str, Promise] = {
    "push": gettext_lazy("a tie is a push"),
    "bank": gettext_lazy("the bank wins a tie"),
}


def setting_label(name: str) -> str:
    found = SETTING_LABELS.get(name)
    return str(found) if found is not None else name.replace(".", ": ").replace("_", " ")


def choice_label(value: str) -> str:
    found = CHOICE_LABELS.get(value)
    return str(found) if found is not None else value


@dataclass(frozen=True)
class SettingChange:
    name: str
    label: str
    old: str
    new: str

    def __str__(self) -> str:
        return f"{self.label}: {self.old}{ARROW}{self.new}"


def flat(settings: Mapping[str, Any]) -> dict[str, str]:
    """One entry per setting, a mapping's entries apart ("paytable.real")."""
    found: dict[str, str] = {}
    for name, value in settings.items():
        if isinstance(value, Mapping):
            found |= {f"{name}.{key}": str(entry) for key, entry in value.items()}
        else:
            found[name] = str(value)
    return found


def changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[SettingChange]:
    """What differs, old → new, in the settings' own order ("—" where one side has none)."""
    before, after = flat(old), flat(new)
    names = [*after, *(name for name in before if name not in after)]
    return [
        SettingChange(name, setting_label(name), _shown(before.get(name)), _shown(after.get(name)))
        for name in names
        if before.get(name) != after.get(name)
    ]


def _shown(value: str | None) -> str:
    return "—" if value is None else choice_label(value)
