"""The body of the table shift report's and the floor summary's PDF, as ReportLab flowables.

A table report prints the figures and round rows its game's binding names (the document's
``table.report_rows``), so a Stud table shows its rake and no Siete y Medio busts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from reportlab.platypus import Flowable

from reports.renderers.labels import label
from reports.renderers.language import local_time
from reports.renderers.pdf_layout import STYLES, grid, section, text

Doc = Mapping[str, Any]
__all__ = ["STYLES", "grid", "number_ranges", "section", "text"]


def number_ranges(numbers: Iterable[int]) -> str:
    """``1001-1003, 1005`` for a list of slip numbers."""
    ranges: list[list[int]] = []
    for number in sorted(numbers):
        if ranges and number == ranges[-1][1] + 1:
            ranges[-1][1] = number
        else:
            ranges.append([number, number])
    parts = [str(a) if a == b else f"{a}-{b}" for a, b in ranges]
    return ", ".join(parts) or _("none")


def chips_text(chips: Mapping[str, int]) -> str:
    return ", ".join(f"{count} x {value}" for value, count in chips.items()) or "-"


def table_shift_sections(document: Doc) -> list[Flowable]:
    custody = document["custody"]
    opener, closer = custody["opener"] or {}, custody["closer"] or {}
    return [
        *section(_("Custody"), _custody_rows(custody, opener, closer)),
        *section(_("Chips by denomination"), _denomination_rows(opener, closer)),
        *section(_("Fills"), _slip_rows(custody["fills"])),
        *section(_("Credits"), _slip_rows(custody["credits"])),
        *section(_("Figures"), _figure_rows(document)),
        *band_section(document.get("expected_versus_actual")),
        *section(_("Rounds"), _round_rows(document)),
        *section(
            _("Alerts"),
            [[_("Raised at"), _("Kind"), _("Round"), _("Message")]]
            + [
                [local_time(a["raised_at"]), label(a["kind"]), a["round"], a["message"]]
                for a in document["alerts"]
            ],
        ),
    ]


def _custody_rows(
    custody: Mapping[str, Any], opener: Mapping[str, Any], closer: Mapping[str, Any]
) -> list[list[Any]]:
    carried = " " + _("(carried over)") if opener.get("carried_over") else ""
    counted = custody["counted_drop"]
    rows: list[list[Any]] = [
        [_("Item"), _("Amount"), _("Signed by")],
        [_("Opener") + carried, opener.get("total"), _pair(opener)],
        [_("Fills"), custody["fills_total"], ""],
        [_("Credits"), custody["credits_total"], ""],
        [_("Closer"), closer.get("total"), _pair(closer)],
        [
            _("Buy-ins (%(count)s)") % {"count": custody["buy_ins"]["count"]},
            custody["buy_ins"]["total"],
            "",
        ],
        [_("Counted drop"), counted and counted["amount"], counted and counted["counted_by"]],
    ]
    check = custody["opener_check"]
    if check:
        verdict = _("matches") if check["matches"] else _("DIFFERS")
        rows.insert(2, [_("Opener less previous closer"), check["difference"], verdict])
    return rows


def _pair(inventory: Mapping[str, Any]) -> str:
    if not inventory:
        return "-"
    return _("%(dealer)s (dealer), %(pit_boss)s (pit boss)") % {
        "dealer": inventory["dealer"],
        "pit_boss": inventory["pit_boss"],
    }


def _denomination_rows(opener: Mapping[str, Any], closer: Mapping[str, Any]) -> list[list[Any]]:
    values = sorted({*opener.get("chips", {}), *closer.get("chips", {})}, key=int)
    rows: list[list[Any]] = [[_("Denomination"), _("Opener"), _("Closer")]]
    for value in values:
        rows.append(
            [value, opener.get("chips", {}).get(value, 0), closer.get("chips", {}).get(value, 0)]
        )
    return rows


def _slip_rows(slips: Sequence[Mapping[str, Any]]) -> list[list[Any]]:
    rows: list[list[Any]] = [
        [
            *(_("Slip"), _("Total"), _("Chips"), _("Requested by"), _("Cashier")),
            *(_("Confirmed by"), _("Status")),
        ]
    ]
    for slip in slips:
        rows.append(
            [
                slip["slip_number"],
                slip["total"],
                chips_text(slip["chips"]),
                slip["requested_by"],
                slip["cashier"],
                slip["confirmed_by"],
                slip_status(slip),
            ]
        )
    return rows


def slip_status(slip: Mapping[str, Any]) -> str:
    """VOID with its reason and both names, or the step an unconfirmed slip reached."""
    void, stage = slip["void"], slip.get("stage", "confirmed")
    if void:
        return _("VOID: %(reason)s (asked by %(asked)s, approved by %(approved)s)") % {
            "reason": void["reason"],
            "asked": void["requested_by"],
            "approved": void["approved_by"],
        }
    if stage != "confirmed":
        return _("OUTSTANDING (%(stage)s)") % {"stage": label(stage)}
    return _("valid")


def _rows_for(document: Doc, part: str, values: Mapping[str, Any]) -> list[str]:
    named = (document["table"].get("report_rows") or {}).get(part)
    return [name for name in named if name in values] if named else list(values)


def _figure_rows(document: Doc) -> list[list[Any]]:
    figures = document["figures"]
    rows: list[list[Any]] = [[_("Figure"), _("Value")]]
    for name in _rows_for(document, "figures", figures):
        value = figures[name]
        rows.append([label(name), label(value) if name.endswith(("_source", "_basis")) else value])
    return rows


def _round_rows(document: Doc) -> list[list[Any]]:
    rounds = document["rounds"]
    rows: list[list[Any]] = [[_("Figure"), _("Count"), _("Amount")]]
    for name in _rows_for(document, "rounds", rounds):
        value = rounds[name]
        if name == "payouts_by_class":
            for hand, total in value.items():
                paid = _("Paid: %(hand)s") % {"hand": label(hand)}
                rows.append([paid, total["count"], total["amount"]])
        elif name == "rake_by_pot":
            for index, pot in enumerate(value):
                name_of_pot = _("main pot") if index == 0 else _("side pot %(n)s") % {"n": index}
                rows.append([_("Rake: %(pot)s") % {"pot": name_of_pot}, "", pot["rake"]])
        elif name in ("hands_played", "rounds_voided", "boxes_played", "pushes", "busts"):
            rows.append([label(name), value, ""])
        else:
            rows.append([label(name), "", value])
    return rows


def band_section(band: Mapping[str, Any] | None) -> list[Flowable]:
    """Where the actual win should lie (theoretical win ± z x sigma x √(Σ stake²)) and
    whether it does; a report stored before the band was read has none and prints nothing."""
    if band is None:
        return []
    title = _("Expected versus actual")
    if not band["applicable"]:
        return section(title, [[_("Figure"), _("Value")], [label(band["basis"]), ""]])
    rows: list[list[Any]] = [
        [_("Figure"), _("Value")],
        [label("theoretical_win"), band["theoretical_win"]],
        [_("Standard deviation"), band["standard_deviation"]],
        [_("Actual win"), band["actual_win"]],
    ]
    levels: list[list[Any]] = [
        [_("Confidence"), "z", _("Lower edge"), _("Upper edge"), _("Actual win")]
    ]
    for level in band["levels"]:
        where = _("OUTSIDE") if level["outside"] else _("inside")
        levels.append([f"{level['confidence']} %", level["z"], level["low"], level["high"], where])
    return [*section(title, rows), *grid_after(levels)]


def grid_after(rows: Sequence[Sequence[Any]]) -> list[Flowable]:
    """A second table under the section's first, with no heading of its own."""
    return [grid(rows)] if len(rows) > 1 else []


FLOOR_FIGURES = ("drop", "win", "hold_percent", "revenue", "fills", "credits", "handle")


def floor_summary_sections(document: Doc) -> list[Flowable]:
    figures = [label(name) for name in FLOOR_FIGURES]
    table_rows: list[list[Any]] = [[_("Table"), _("Game"), *figures]]
    for row in document["tables"]:
        name = f"{row['name']} ({row['table']})"
        if row["provisional"]:
            name += " " + _("(provisional)")
        table_rows.append([name, label(row["game"]), *(row[key] for key in FLOOR_FIGURES)])
    total_rows: list[list[Any]] = [[_("Scope"), _("Tables"), *figures]]
    scopes = [*((label(game), totals) for game, totals in document["by_game"].items())]
    for scope, totals in [*scopes, (_("whole floor"), document["floor"])]:
        total_rows.append([scope, totals["tables"], *(totals[key] for key in FLOOR_FIGURES)])
    return [*section(_("Tables"), table_rows), *section(_("Totals"), total_rows)]
