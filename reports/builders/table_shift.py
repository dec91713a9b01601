"""The table shift report: one table's custody, figures, rounds and alerts for one shift."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from reports.builders.document import Document, ReportContext, json_ready, report_header
from reports.builders.inputs import Alert, TableInfo
from reports.figures import (
    RoundSummary,
    RoundTotals,
    ShiftBand,
    band_document,
    hold_percent,
    quantise,
    summarise_rounds,
    table_win,
    theoretical_win,
)
from tables import games
from tables.engine.custody import (
    Closer,
    Credit,
    CustodyState,
    Fill,
    Opener,
    PendingSlip,
    SlipType,
    SlipVoided,
    chips_total,
)
from tables.engine.errors import InvalidInputError


def build_table_shift_report(
    *,
    context: ReportContext,
    table: TableInfo,
    ledger: CustodyState,
    rounds: Iterable[RoundSummary],
    house_edge: Fraction | Decimal | None,
    alerts: Sequence[Alert],
    watermark: Mapping[str, int],
    previous_closer: Closer | None = None,
    report_rows: Mapping[str, Sequence[str]] | None = None,
    allow_provisional: bool = True,
    band: ShiftBand | None = None,
) -> Document:
    """``house_edge`` is the game's exact edge under this table's settings (house-banked only).
    ``previous_closer`` is the last shift's closer, to check that a fresh opener agrees with it.
    ``report_rows`` are the rows the game's binding prints (see :func:`report_rows`); without
    them a printed report shows every row.
    ``band`` is where the actual win should lie (`reports.inputs.variance`), when it was read."""
    _verify_one_table(table, ledger, alerts)
    totals = summarise_rounds(rounds, payout_classes=games.payout_classes(table.game))
    closer_or_opener = ledger.closer or ledger.opener
    header = report_header(
        "table_shift",
        context,
        watermark=watermark,
        provisional_reasons=_open_custody(ledger),
        signatures=(
            ("dealer", closer_or_opener.dealer if closer_or_opener else None),
            ("pit_boss", closer_or_opener.pit_boss if closer_or_opener else None),
        ),
        allow_provisional=allow_provisional,
    )
    document = {
        **header,
        "table": {
            "id": table.table_id,
            "name": table.name,
            "game": table.game,
            "report_rows": {part: list(rows) for part, rows in report_rows.items()}
            if report_rows
            else None,
        },
        "custody": {
            **_custody_section(ledger),
            "opener_check": _opener_check(ledger.opener, previous_closer),
        },
        "figures": _figures_section(table, ledger, totals, house_edge),
        "rounds": rounds_section(totals),
        "alerts": [_alert_row(alert) for alert in sorted(alerts, key=lambda a: a.raised_at)],
        "expected_versus_actual": band_document(band) if band is not None else None,
    }
    ready: Document = json_ready(document)
    return ready


def report_rows(binding_key: str) -> dict[str, list[str]]:
    """The figures and round rows that apply to a game, as its binding (``Table.game``) says."""
    binding = games.binding_for(binding_key)
    return {"figures": list(binding.report_figures), "rounds": list(binding.report_round_rows)}


def _verify_one_table(table: TableInfo, ledger: CustodyState, alerts: Sequence[Alert]) -> None:
    strays = {alert.table for alert in alerts} | {ledger.table}
    if strays != {table.table_id}:
        raise InvalidInputError(
            f"The report of table {table.table_id} was given another table's records.",
            code="report_mismatch",
        )


def _opener_check(opener: Opener | None, previous_closer: Closer | None) -> dict[str, Any] | None:
    """Chips that changed between one shift's closer and the next opener must be explained."""
    if opener is None or previous_closer is None:
        return None
    difference = chips_total(opener.chips) - chips_total(previous_closer.chips)
    return {
        "previous_closer_total": chips_total(previous_closer.chips),
        "difference": difference,
        "matches": _nonzero(opener.chips) == _nonzero(previous_closer.chips),
    }


def _nonzero(chips: Mapping[int, int]) -> dict[int, int]:
    return {denomination: count for denomination, count in chips.items() if count}


def _open_custody(ledger: CustodyState) -> list[str]:
    """Why the custody is not final yet; a table never opened this shift is complete as it is."""
    if ledger.opener is None:
        return []
    reasons = []
    if ledger.closer is None:
        reasons.append("no_closer")
    if ledger.drop is None:
        reasons.append("drop_not_counted")
    return reasons


def _custody_section(ledger: CustodyState) -> dict[str, Any]:
    return {
        "opener": _inventory(ledger.opener),
        "closer": _inventory(ledger.closer),
        "fills": _slips_of(ledger, "fill"),
        "credits": _slips_of(ledger, "credit"),
        "fills_total": ledger.fills_total,
        "credits_total": ledger.credits_total,
        "buy_ins": {"count": len(ledger.buy_ins), "total": ledger.estimated_drop},
        "counted_drop": (
            {"amount": ledger.drop.amount, "counted_by": ledger.drop.counted_by}
            if ledger.drop
            else None
        ),
    }


def _inventory(count: Opener | Closer | None) -> dict[str, Any] | None:
    if count is None:
        return None
    return {
        "chips": _chips(count.chips),
        "total": chips_total(count.chips),
        "dealer": count.dealer,
        "pit_boss": count.pit_boss,
        "carried_over": isinstance(count, Opener) and count.carried_over,
    }


def _slips_of(ledger: CustodyState, kind: SlipType) -> list[dict[str, Any]]:
    """Every slip of the table, confirmed or not, void ones included, by number."""
    confirmed = ledger.fills if kind == "fill" else ledger.credits
    rows = [_slip_row(ledger, slip) for slip in confirmed]
    rows += [_pending_row(ledger, slip) for slip in ledger.pending if slip.slip_type == kind]
    return sorted(rows, key=lambda row: row["slip_number"])


def _slip_row(ledger: CustodyState, slip: Fill | Credit) -> dict[str, Any]:
    kind: SlipType = "fill" if isinstance(slip, Fill) else "credit"
    return {
        "slip_number": slip.slip_number,
        "stage": "confirmed",
        "chips": _chips(slip.chips),
        "total": chips_total(slip.chips),
        "requested_by": slip.requested_by,
        "cashier": slip.issued_by if isinstance(slip, Fill) else slip.received_by,
        "confirmed_by": slip.confirmed_by,
        "void": _void(ledger.void_of(kind, slip.slip_number)),
    }


def _pending_row(ledger: CustodyState, slip: PendingSlip) -> dict[str, Any]:
    """A slip the table never confirmed: outstanding at the step it reached, or void there."""
    return {
        "slip_number": slip.slip_number,
        "stage": slip.stage,
        "chips": _chips(slip.chips),
        "total": slip.total,
        "requested_by": slip.requested_by,
        "cashier": slip.cashier,
        "confirmed_by": None,
        "void": _void(ledger.void_of(slip.slip_type, slip.slip_number)),
    }


def _void(void: SlipVoided | None) -> dict[str, Any] | None:
    if void is None:
        return None
    return {
        "reason": void.reason,
        "requested_by": void.requested_by,
        "approved_by": void.approved_by,
    }


def _figures_section(
    table: TableInfo,
    ledger: CustodyState,
    totals: RoundTotals,
    house_edge: Fraction | Decimal | None,
) -> dict[str, Any]:
    drop, drop_source = _drop(ledger)
    win = _custody_win(ledger, drop) if table.house_banked else None
    edge = Fraction(house_edge) if table.house_banked and house_edge is not None else None
    theoretical = theoretical_win(totals.handle, edge) if edge is not None else None
    return {
        "drop": drop,
        "drop_source": drop_source,
        "estimated_drop": ledger.estimated_drop,
        "win": win,
        "hold_percent": hold_percent(win, drop) if win is not None else None,
        "revenue": win if table.house_banked else totals.rake_total,
        "house_edge_percent": quantise(edge * 100, 4) if edge is not None else None,
        "theoretical_win": quantise(theoretical) if theoretical is not None else None,
        "theoretical_basis": _theoretical_basis(table, edge),
        "actual_win": totals.house_net,
        "actual_less_theoretical": (
            quantise(totals.house_net - theoretical) if theoretical is not None else None
        ),
    }


def _theoretical_basis(table: TableInfo, edge: Fraction | None) -> str:
    """Why there is, or is not, a theoretical win: a raked game has no edge to apply."""
    if not table.house_banked:
        return "none_raked_game"
    return "house_edge" if edge is not None else "edge_unknown"


def _drop(ledger: CustodyState) -> tuple[int, str]:
    """The counted drop is final; until it is entered the buy-ins stand in for it."""
    if ledger.drop is not None:
        return ledger.drop.amount, "counted"
    return ledger.estimated_drop, "estimated"


def _custody_win(ledger: CustodyState, drop: int) -> int | None:
    if ledger.opener is None:
        return 0 if ledger.closer is None else None
    if ledger.closer is None:
        return None
    return table_win(
        drop=drop,
        opener=chips_total(ledger.opener.chips),
        closer=chips_total(ledger.closer.chips),
        fills=ledger.fills_total,
        credits=ledger.credits_total,
    )


def rounds_section(totals: RoundTotals) -> dict[str, Any]:
    return {
        "hands_played": totals.hands_played,
        "rounds_voided": totals.rounds_voided,
        "boxes_played": totals.boxes_played,
        "handle": totals.handle,
        "payouts_by_class": {
            name: {"count": total.count, "amount": total.amount}
            for name, total in totals.payouts_by_class.items()
        },
        "payouts_total": totals.payouts_total,
        "pushes": totals.pushes,
        "busts": totals.busts,
        "breakage": quantise(totals.breakage),
        "rake_by_pot": [
            {"pot": "main" if index == 0 else f"side {index}", "rake": rake}
            for index, rake in enumerate(totals.rake_by_pot)
        ],
        "rake_total": totals.rake_total,
    }


def _alert_row(alert: Alert) -> dict[str, Any]:
    return {
        "kind": alert.kind,
        "raised_at": alert.raised_at,
        "round": alert.round_id,
        "message": alert.message,
    }


def _chips(chips: Mapping[int, int]) -> dict[str, int]:
    return {str(denomination): count for denomination, count in sorted(chips.items())}
