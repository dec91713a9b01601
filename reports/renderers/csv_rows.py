"""The rows of each report kind's CSV table, in a fixed column order."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from reports.renderers.marking import status_text

Row = dict[str, Any]
Doc = Mapping[str, Any]

TABLE_SHIFT_COLUMNS = (
    "gaming_day",
    "shift",
    "table",
    "section",
    "item",
    "slip_number",
    "denomination",
    "count",
    "amount",
    "people",
    "note",
)
FLOOR_COLUMNS = (
    "gaming_day",
    "shift",
    "report_status",
    "scope",
    "table",
    "name",
    "game",
    "provisional",
    "drop",
    "estimated_drop",
    "fills",
    "credits",
    "win",
    "hold_percent",
    "revenue",
    "actual_win",
    "theoretical_win",
    "handle",
    "hands_played",
    "rake",
)
CASHIER_COLUMNS = (
    "gaming_day",
    "shift",
    "section",
    "slip_type",
    "slip_number",
    "table",
    "denomination",
    "count",
    "amount",
    "status",
    "people",
    "note",
)


def signers_text(**names: Any) -> str:
    return "; ".join(f"{role}: {name}" for role, name in names.items() if name)


def report_row(document: Doc, *, label: str, text: str) -> Row:
    """The first row: the report's kind in ``label``, its status and coverage in ``text``."""
    watermark = " ".join(f"{table}={seq}" for table, seq in document["watermark"].items())
    return {
        "section": "report",
        label: document["kind"],
        text: f"{status_text(document)}; version {document['version']}; "
        f"generated {document['generated_at']}; watermark {watermark}",
    }


def table_shift_rows(document: Doc) -> Iterator[Row]:
    base = {
        "gaming_day": document["gaming_day"],
        "shift": document["shift"],
        "table": document["table"]["id"],
    }
    custody = document["custody"]
    yield {**base, **report_row(document, label="item", text="note")}
    yield from ({**base, **row} for row in _inventory_rows("opener", custody["opener"]))
    check = custody["opener_check"]
    if check:
        yield {
            **base,
            "section": "opener",
            "item": "against_previous_closer",
            "amount": check["difference"],
            "note": "matches" if check["matches"] else "DIFFERS from the previous closer",
        }
    for slip_type in ("fills", "credits"):
        for slip in custody[slip_type]:
            yield from ({**base, **row} for row in _slip_rows(slip_type[:-1], slip))
    yield from ({**base, **row} for row in _inventory_rows("closer", custody["closer"]))
    buy_ins = custody["buy_ins"]
    yield {**base, "section": "drop", "item": "buy_ins", **_buy_ins_row(buy_ins)}
    counted = custody["counted_drop"]
    if counted:
        yield {
            **base,
            "section": "drop",
            "item": "counted_drop",
            "amount": counted["amount"],
            "people": signers_text(counted_by=counted["counted_by"]),
        }
    for name, value in document["figures"].items():
        yield {**base, "section": "figures", "item": name, "amount": value}
    yield from ({**base, **row} for row in band_rows(document.get("expected_versus_actual")))
    applies = (document["table"].get("report_rows") or {}).get("rounds")
    yield from ({**base, **row} for row in _rounds_rows(document["rounds"], applies))
    for alert in document["alerts"]:
        yield {
            **base,
            "section": "alert",
            "item": alert["kind"],
            "note": f"{alert['raised_at']} round {alert['round'] or '-'}: {alert['message']}",
        }


BAND_SECTION = "expected_versus_actual"


def band_rows(band: Mapping[str, Any] | None) -> Iterator[Row]:
    """The band as rows: the centre, the spread and the result, then each confidence level's
    edges, ``note`` saying whether the result lies inside (none before the band was read)."""
    if band is None:
        return
    if not band["applicable"]:
        yield {"section": BAND_SECTION, "item": "basis", "note": band["basis"]}
        return
    for item in ("theoretical_win", "standard_deviation", "actual_win"):
        yield {"section": BAND_SECTION, "item": item, "amount": band[item]}
    for level in band["levels"]:
        where = "outside" if level["outside"] else "inside"
        for edge in ("low", "high"):
            yield {
                "section": BAND_SECTION,
                "item": f"band_{level['confidence']}_{edge}",
                "amount": level[edge],
                "note": f"z {level['z']}; actual win {where}",
            }


def _buy_ins_row(buy_ins: Mapping[str, int]) -> Row:
    return {"count": buy_ins["count"], "amount": buy_ins["total"]}


def _inventory_rows(section: str, inventory: Mapping[str, Any] | None) -> Iterator[Row]:
    if inventory is None:
        yield {"section": section, "item": "missing"}
        return
    people = signers_text(dealer=inventory["dealer"], pit_boss=inventory["pit_boss"])
    for value, count in inventory["chips"].items():
        amount = int(value) * count
        yield {
            "section": section,
            "item": "chips",
            "denomination": value,
            "count": count,
            "amount": amount,
        }
    note = "carried over from the previous closer" if inventory["carried_over"] else ""
    yield {
        "section": section,
        "item": "total",
        "amount": inventory["total"],
        "people": people,
        "note": note,
    }


def _slip_rows(slip_type: str, slip: Mapping[str, Any]) -> Iterator[Row]:
    void, stage = slip["void"], slip.get("stage", "confirmed")
    note = ""
    if void:
        note = (
            f"VOID: {void['reason']} (asked by {void['requested_by']}, "
            f"approved by {void['approved_by']})"
        )
    elif stage != "confirmed":
        note = f"OUTSTANDING: {stage}, not confirmed at the table"
    people = signers_text(
        requested_by=slip["requested_by"],
        cashier=slip["cashier"],
        confirmed_by=slip["confirmed_by"],
    )
    for value, count in slip["chips"].items():
        yield {
            "section": slip_type,
            "item": "chips",
            "slip_number": slip["slip_number"],
            "denomination": value,
            "count": count,
            "amount": int(value) * count,
        }
    yield {
        "section": slip_type,
        "item": "total",
        "slip_number": slip["slip_number"],
        "amount": slip["total"],
        "people": people,
        "note": note,
    }


def _rounds_rows(rounds: Mapping[str, Any], applies: Sequence[str] | None) -> Iterator[Row]:
    """The round rows of the table's game (``applies``, from its binding; None: all)."""
    wanted = set(applies) if applies else set(rounds)
    for name in ("hands_played", "rounds_voided", "boxes_played", "pushes", "busts"):
        if name in wanted:
            yield {"section": "rounds", "item": name, "count": rounds[name]}
    for name in ("handle", "payouts_total", "breakage", "rake_total"):
        if name in wanted:
            yield {"section": "rounds", "item": name, "amount": rounds[name]}
    payouts = rounds["payouts_by_class"] if "payouts_by_class" in wanted else {}
    rakes = rounds["rake_by_pot"] if "rake_by_pot" in wanted else []
    for name, total in payouts.items():
        yield {
            "section": "payouts",
            "item": name,
            "count": total["count"],
            "amount": total["amount"],
        }
    for pot in rakes:
        yield {"section": "rake", "item": pot["pot"], "amount": pot["rake"]}


def floor_rows(document: Doc) -> Iterator[Row]:
    base = {
        "gaming_day": document["gaming_day"],
        "shift": document["shift"],
        "report_status": f"{status_text(document)}; version {document['version']}",
    }
    for row in document["tables"]:
        yield {**base, "scope": "table", **row}
    for game, totals in document["by_game"].items():
        yield {
            **base,
            "scope": "game",
            "game": game,
            **_total_columns(totals),
            "provisional": document["provisional"],
        }
    yield {
        **base,
        "scope": "floor",
        **_total_columns(document["floor"]),
        "provisional": document["provisional"],
    }


def _total_columns(totals: Mapping[str, Any]) -> Row:
    return {key: value for key, value in totals.items() if key in FLOOR_COLUMNS}


def cashier_rows(document: Doc) -> Iterator[Row]:
    base = {"gaming_day": document["gaming_day"], "shift": document["shift"]}
    yield {**base, **report_row(document, label="status", text="note")}
    for slip_type, slips in document["slips"].items():
        for slip in slips:
            yield from ({**base, "slip_type": slip_type, **row} for row in _cage_slip_rows(slip))
    for slip_type in ("fill", "credit"):
        totals = document["totals"][slip_type]
        for value, total in totals["by_denomination"].items():
            yield {
                **base,
                "section": "total",
                "slip_type": slip_type,
                "denomination": value,
                "count": total["count"],
                "amount": total["amount"],
            }
        yield {
            **base,
            "section": "total",
            "slip_type": slip_type,
            "count": totals["slips"],
            "amount": totals["amount"],
            "note": f"{totals['voided']} void",
        }
        outstanding = totals["outstanding"]
        yield {
            **base,
            "section": "total",
            "slip_type": slip_type,
            "status": "outstanding",
            "count": outstanding["slips"],
            "amount": outstanding["amount"],
            "note": "requested, not confirmed at the table",
        }
        yield from (
            {**base, "slip_type": slip_type, **row}
            for row in _sequence_rows(document["sequence"][slip_type])
        )
        yield {**base, "slip_type": slip_type, **_over_short_row(document["over_short"][slip_type])}


def _over_short_row(over_short: Mapping[str, Any]) -> Row:
    if over_short["status"] == "not_entered":
        note = f"cage figure not entered; slips {over_short['computed']}"
    else:
        note = f"cage {over_short['cage']}; slips {over_short['computed']}"
    if over_short["awaiting_confirmation"]:
        note += f" ({over_short['awaiting_confirmation']} not confirmed at the table)"
    return {
        "section": "over_short",
        "amount": over_short["difference"],
        "status": over_short["status"],
        "note": note,
    }


def _cage_slip_rows(slip: Mapping[str, Any]) -> Iterator[Row]:
    number, table, status = slip["slip_number"], slip["table"], slip["status"]
    for value, count in slip["chips"].items():
        yield {
            "section": "slip",
            "slip_number": number,
            "table": table,
            "denomination": value,
            "count": count,
            "amount": int(value) * count,
            "status": status,
        }
    people = signers_text(
        requested_by=slip["requested_by"],
        cashier=slip["cashier"],
        confirmed_by=slip["confirmed_by"],
        void_approved_by=slip["void_approved_by"],
    )
    yield {
        "section": "slip",
        "slip_number": number,
        "table": table,
        "amount": slip["total"],
        "status": status,
        "people": people,
        "note": _cage_slip_note(slip),
    }


def _cage_slip_note(slip: Mapping[str, Any]) -> str:
    if slip["status"] == "void":
        at_step = (
            f" (void when {slip['stage']})" if slip["stage"] not in ("confirmed", None) else ""
        )
        return f"{slip['void_reason'] or ''}{at_step}"
    if slip["status"] != "used":
        return f"OUTSTANDING: {slip['status']}, not confirmed at the table"
    return ""


def _sequence_rows(sequence: Mapping[str, Any]) -> Iterator[Row]:
    for status in ("used", "voided", "outstanding", "missing", "not_issued", "duplicates"):
        for number in sequence[status]:
            yield {"section": "sequence", "slip_number": number, "status": status}
