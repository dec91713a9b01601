"""How long the end-of-shift reports take to build and render on a busy floor.

Run: .venv/bin/python bench/report_rendering.py [--tables 40] [--slips 30] [--rounds 600]

A synthetic shift: every table has an opener, ``--slips`` fills and credits (one in ten void),
buy-ins, a closer and a counted drop, and ``--rounds`` settled rounds. The cashier report covers
every table, with the fill and credit series issued continuously across the floor; the audit report
lists one finding of each kind per table.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reports.builders.audit import build_audit_report
from reports.builders.audit_inputs import (
    CardAnomaly,
    ChainCheck,
    Correction,
    DeviceIncident,
    ManualEntry,
    PayoutMismatch,
)
from reports.builders.cashier import build_cashier_report
from reports.builders.document import ReportContext, content_hash
from reports.builders.floor_summary import build_floor_summary
from reports.builders.inputs import TableInfo
from reports.builders.table_shift import build_table_shift_report
from reports.figures import Payout, RoundSummary
from reports.renderers.as_csv import render_csv
from reports.renderers.as_json import render_json
from reports.renderers.as_pdf import render_pdf
from tables.engine.custody import (
    BuyIn,
    Closer,
    Credit,
    CustodyState,
    DropCounted,
    Fill,
    Opener,
    SlipVoided,
    fold_all,
    new_state,
)

CHIPS = (1, 5, 25, 100, 500)
START = datetime(2026, 3, 10, 21, 0, tzinfo=UTC)
CONTEXT = ReportContext(
    gaming_day=date(2026, 3, 10),
    shift="night",
    generated_at=datetime(2026, 3, 11, 5, 10, tzinfo=UTC),
    shift_ends_at=datetime(2026, 3, 11, 5, 0, tzinfo=UTC),
)


def table_ledger(index: int, slips: int) -> CustodyState:
    table = f"T{index:02d}"
    facts: list[Any] = [Opener({100: 20, 25: 40, 5: 60}, dealer=f"d{index}", pit_boss="pb")]
    for slip in range(slips):
        number = index * slips + slip + 1  # one continuous series across the floor
        facts.append(Fill(number, {100: 5, 25: 4}, "pb", "cashier", f"d{index}"))
        facts.append(Credit(number, {500: 1}, "pb", "cashier", f"d{index}"))
        if slip % 10 == 9:
            facts.append(SlipVoided("fill", number, "wrong table", "pb", "pb2"))
        facts.append(BuyIn(100 + slip))
    facts.append(Closer({100: 18, 25: 44, 5: 60}, dealer=f"d{index}", pit_boss="pb"))
    facts.append(DropCounted(5000 + index, counted_by="count"))
    return fold_all(new_state(table, CHIPS), facts)


def table_rounds(count: int) -> list[RoundSummary]:
    return [
        RoundSummary(
            f"r{n}",
            handle=120,
            house_net=15,
            boxes=4,
            payouts=(Payout("puntaje", 20), Payout("siete_y_medio", 45)),
            pushes=1,
            busts=1,
            breakage=Fraction(1, 2),
        )
        for n in range(count)
    ]


def audit_inputs(tables: int) -> dict[str, Any]:
    names = [f"T{i:02d}" for i in range(tables)]
    moments = [(name, START + timedelta(minutes=i)) for i, name in enumerate(names)]
    return {
        "chain": [ChainCheck(t, True, 900, 900, "f" * 64) for t in names],
        "rounds_replayed": tables * 600,
        "replay_differences": [],
        "corrections": [
            Correction(t, "r1", "card.replaced", "misread", "d", "pb", at) for t, at in moments
        ],
        "manual_entries": [ManualEntry(t, "r2", "box 1", "7O", "7C", at) for t, at in moments],
        "payout_mismatches": [PayoutMismatch(t, "r3", 2, 45, 40) for t in names],
        "card_anomalies": [CardAnomaly(t, "r4", "duplicate", "5B", at) for t, at in moments],
        "device_incidents": [DeviceIncident(f"shoe-{t}", t, "offline", at) for t, at in moments],
        "bank_rule_violations": [],
        "alerts": [],
    }


def timed(label: str, action: Callable[[], Any], repeat: int) -> Any:
    durations, result = [], None
    for _ in range(repeat):
        began = time.perf_counter()
        result = action()
        durations.append(time.perf_counter() - began)
    size = f"{len(result):>9,d} bytes" if isinstance(result, bytes) else ""
    print(f"{label:<38} median {statistics.median(durations) * 1000:8.1f} ms  {size}")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--slips", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=600)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    ledgers = timed(
        f"fold custody ({args.tables} tables)",
        lambda: [table_ledger(i, args.slips) for i in range(args.tables)],
        args.repeat,
    )
    rounds = table_rounds(args.rounds)

    def tables() -> list[dict[str, Any]]:
        return [
            build_table_shift_report(
                context=CONTEXT,
                table=TableInfo(ledger.table, ledger.table, "siete_y_medio"),
                ledger=ledger,
                rounds=rounds,
                house_edge=Fraction(3, 100),
                alerts=[],
                watermark={ledger.table: 900},
            )
            for ledger in ledgers
        ]

    table_reports = timed("build every table shift report", tables, args.repeat)
    floor = timed(
        "build floor summary",
        lambda: build_floor_summary(context=CONTEXT, table_reports=table_reports),
        args.repeat,
    )
    every_slip = range(1, args.tables * args.slips + 1)
    cashier = timed(
        "build cashier report",
        lambda: build_cashier_report(
            context=CONTEXT,
            ledgers=ledgers,
            issued={"fill": every_slip, "credit": every_slip},
            cage_figures=None,
            watermark={ledger.table: 900 for ledger in ledgers},
        ),
        args.repeat,
    )
    audit = timed(
        "build audit report",
        lambda: build_audit_report(context=CONTEXT, **audit_inputs(args.tables)),
        args.repeat,
    )
    for name, document in (
        ("table shift", table_reports[0]),
        ("floor", floor),
        ("cashier", cashier),
        ("audit", audit),
    ):
        timed(f"content hash: {name}", partial(content_hash, document), args.repeat)
        for kind, render in (("json", render_json), ("csv", render_csv), ("pdf", render_pdf)):
            timed(f"render {kind}: {name}", partial(render, document), args.repeat)


if __name__ == "__main__":
    main()
