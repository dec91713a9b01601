"""The body of the cashier (cage) report's PDF."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from reportlab.platypus import Flowable

from reports.renderers.labels import label
from reports.renderers.pdf_layout import section
from reports.renderers.pdf_sections import chips_text, number_ranges

Doc = Mapping[str, Any]
SEQUENCE_KEYS = ("issued", "used", "voided", "outstanding", "missing", "not_issued", "duplicates")


def cashier_sections(document: Doc) -> list[Flowable]:
    flowables: list[Flowable] = []
    for slip_type, title in (("fill", _("Fills")), ("credit", _("Credits"))):
        rows: list[list[Any]] = [
            [_("Slip"), _("Table"), _("Chips"), _("Total"), _("Status"), _("Signed by")]
        ]
        for slip in document["slips"][slip_type]:
            rows.append(
                [
                    slip["slip_number"],
                    slip["table"] or _("cage"),
                    chips_text(slip["chips"]),
                    slip["total"],
                    cage_slip_status(slip),
                    _signers(slip),
                ]
            )
        flowables += section(title, rows)
    flowables += section(_("By table and denomination"), _by_table_rows(document))
    flowables += section(_("Slip sequence"), _sequence_rows(document))
    flowables += section(_("Totals and over/short"), _over_short_rows(document))
    return flowables


def _signers(slip: Mapping[str, Any]) -> str:
    roles = (
        ("requested_by", _("asked")),
        ("cashier", _("cage")),
        ("confirmed_by", _("table")),
        ("void_approved_by", _("void approved")),
    )
    return ", ".join(f"{slip[key]} ({role})" for key, role in roles if slip.get(key))


def cage_slip_status(slip: Mapping[str, Any]) -> str:
    if slip["status"] == "void":
        text = _("VOID")
        if slip["stage"] not in ("confirmed", None):
            text += " " + _("when %(stage)s") % {"stage": label(slip["stage"])}
        if slip["void_reason"]:
            text += f": {slip['void_reason']}"
        return text
    if slip["status"] == "used":
        return label("used")
    return _("OUTSTANDING (%(stage)s)") % {"stage": label(slip["status"])}


def _by_table_rows(document: Doc) -> list[list[Any]]:
    rows: list[list[Any]] = [[_("Type"), _("Table"), _("Denomination"), _("Count"), _("Amount")]]
    for row in document["by_table_and_denomination"]:
        kind = label(row["slip_type"])
        rows.append([kind, row["table"], row["denomination"], row["count"], row["amount"]])
    return rows


def _sequence_rows(document: Doc) -> list[list[Any]]:
    """One row per few ranges, so that a long list of numbers still splits across pages."""
    rows: list[list[Any]] = [[_("Type"), _("Numbers"), _("Count"), _("Slip numbers")]]
    for slip_type, sequence in document["sequence"].items():
        for key in SEQUENCE_KEYS:
            numbers = sequence[key]
            for index, chunk in enumerate(range_chunks(numbers)):
                first = index == 0
                rows.append(
                    [
                        label(slip_type) if first else "",
                        label(key) if first else "",
                        len(numbers) if first else "",
                        chunk,
                    ]
                )
    return rows


def range_chunks(numbers: Sequence[int], per_row: int = 8) -> list[str]:
    parts = number_ranges(numbers).split(", ")
    return [", ".join(parts[i : i + per_row]) for i in range(0, len(parts), per_row)]


def _over_short_rows(document: Doc) -> list[list[Any]]:
    rows: list[list[Any]] = [
        [
            *(_("Type"), _("Slips"), _("Void"), _("Outstanding"), _("Total")),
            *(_("Cage signed"), _("Cage"), _("Over/short")),
        ]
    ]
    for slip_type in ("fill", "credit"):
        totals, over_short = document["totals"][slip_type], document["over_short"][slip_type]
        entered = over_short["status"] != "not_entered"
        rows.append(
            [
                label(slip_type),
                totals["slips"],
                totals["voided"],
                totals["outstanding"]["slips"],
                totals["amount"],
                over_short["computed"],
                over_short["cage"] if entered else label("not_entered"),
                f"{over_short['difference']} {label(over_short['status'])}" if entered else "",
            ]
        )
    net = document["totals"]["net_to_tables"]
    rows.append([_("net to tables"), "", "", "", net, "", "", ""])
    return rows
