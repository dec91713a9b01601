"""The body of a period report's PDF (the gaming day, month to date, year to date)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from reportlab.platypus import Flowable

from reports.renderers.labels import label
from reports.renderers.pdf_layout import section

Doc = Mapping[str, Any]
PERIOD_FIGURES = ("drop", "win", "hold_percent", "theoretical_win", "rake")


def period_sections(document: Doc) -> list[Flowable]:
    figures = [label(name) for name in PERIOD_FIGURES]
    table_rows: list[list[Any]] = [[_("Table"), _("Game"), _("Shifts"), *figures]]
    for row in document["tables"]:
        table_rows.append(
            [
                f"{row['name']} ({row['table']})",
                label(row["game"]),
                row["shifts"],
                *(row[key] for key in PERIOD_FIGURES),
            ]
        )
    game_rows: list[list[Any]] = [[_("Game"), _("Tables"), _("Shifts"), *figures]]
    totals = [(label(game), values) for game, values in document["by_game"].items()]
    for scope, values in [*totals, (_("whole floor"), document["floor"])]:
        game_rows.append(
            [scope, values["tables"], values["shifts"], *(values[key] for key in PERIOD_FIGURES)]
        )
    return [*section(_("By table"), table_rows), *section(_("By game"), game_rows)]
