"""A shift played through the services, and the reports built from its log."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User

from reports.demo.shift import Staff, TablePlay, simulate_shift, simulation_tables
from reports.inputs.audit import findings_from_json, findings_to_json, table_findings
from reports.inputs.rounds import round_summary, shift_rounds, shift_window
from reports.models import JobRun, Report, Slip
from reports.shifts import ShiftKey
from reports.tasks import start_run
from tables.models import DealerAssignment, Table, TableEvent
from tables.services.floor import dealer_assign

pytestmark = pytest.mark.django_db
ROUNDS = 4


@pytest.fixture
def staff(
    dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User, cashier_carmen: User
) -> Staff:
    return Staff(dealer_dora, pit_boss_paula, pit_boss_pedro, cashier_carmen)


@pytest.fixture
def played(staff: Staff) -> tuple[ShiftKey, list[TablePlay]]:
    tables = simulation_tables(2)
    return simulate_shift(tables, rounds=ROUNDS, seed=7, staff=staff)


def stored(kind: str, key: ShiftKey, **filters: Any) -> Report:
    return Report.objects.get(kind=kind, gaming_day=key.gaming_day, shift=key.shift, **filters)


def test_the_table_report_totals_equal_the_sum_of_its_rounds_to_the_cent(
    played: tuple[ShiftKey, list[TablePlay]],
) -> None:
    key, _plays = played
    for table in Table.objects.all():
        report = stored("table_shift", key, table=table).document
        summaries = [
            round_summary(table.game, row) for row in shift_rounds(table, shift_window(table, key))
        ]
        assert report["rounds"]["hands_played"] == len(summaries) == ROUNDS
        assert report["rounds"]["handle"] == sum(s.handle for s in summaries)
        assert report["figures"]["actual_win"] == sum(s.house_net for s in summaries)
        paid = sum(p.amount for s in summaries for p in s.payouts)
        assert report["rounds"]["payouts_total"] == paid
        assert report["rounds"]["rake_total"] == sum(sum(s.rake_by_pot) for s in summaries)
        assert not report["provisional"]


def test_the_custody_win_of_a_siete_table_is_the_house_net_of_its_rounds(
    played: tuple[ShiftKey, list[TablePlay]],
) -> None:
    key, plays = played
    siete = Table.objects.get(game=Table.Game.SIETE_Y_MEDIO)
    play = next(p for p in plays if p.table == siete.name)
    figures = stored("table_shift", key, table=siete).document["figures"]
    assert figures["drop_source"] == "counted"
    assert figures["drop"] == play.buy_ins
    assert figures["win"] == figures["actual_win"] == play.house_net
    if figures["drop"]:
        hold = Decimal(figures["win"]) * 100 / Decimal(figures["drop"])
        assert Decimal(figures["hold_percent"]) == hold.quantize(Decimal("0.01"))


def test_the_floor_summary_adds_up_the_table_reports(
    played: tuple[ShiftKey, list[TablePlay]],
) -> None:
    key, _ = played
    tables = [r.document for r in Report.objects.filter(kind="table_shift")]
    floor = stored("floor_summary", key).document
    assert floor["floor"]["handle"] == sum(t["rounds"]["handle"] for t in tables)
    assert floor["floor"]["rake"] == sum(t["rounds"]["rake_total"] for t in tables)
    assert floor["floor"]["tables"] == 2
    assert floor["watermark"] == {k: v for t in tables for k, v in t["watermark"].items()}


def test_the_cashier_report_lists_every_slip_and_a_clean_series(
    played: tuple[ShiftKey, list[TablePlay]],
) -> None:
    key, plays = played
    cashier = stored("cashier", key).document
    fills = sum(p.fills for p in plays)
    assert cashier["totals"]["fill"]["amount"] == fills
    for kind in ("fill", "credit"):
        assert cashier["sequence"][kind]["intact"]
        assert cashier["sequence"][kind]["outstanding"] == []
        # The demo's cage entered its own totals, and they agree with the slips.
        assert cashier["over_short"][kind]["status"] == "balanced"
    assert cashier["cage_figures"]["fills_issued"] == fills
    assert not cashier["provisional"]


def test_every_demo_slip_was_requested_issued_or_received_and_confirmed(
    played: tuple[ShiftKey, list[TablePlay]],
) -> None:
    _, plays = played
    slips = Slip.objects.all()
    assert slips.count() == sum(len(play.slips) for play in plays) > 0
    for slip in slips:
        steps = TableEvent.objects.filter(
            table=slip.table,
            type__startswith=f"custody.{slip.slip_type}_",
            payload__slip_number=slip.number,
        ).order_by("seq")
        cage = "issued" if slip.slip_type == "fill" else "received"
        assert [event.type.split("_")[-1] for event in steps] == ["requested", cage, "confirmed"]
        assert (slip.stage, slip.voided) == ("confirmed", False)
        actors = [event.actor.username for event in steps]  # type: ignore[union-attr]
        assert actors == ["paula", "carmen", "dora"]


def test_the_audit_report_verifies_every_chain_and_replays_the_rounds(
    played: tuple[ShiftKey, list[TablePlay]],
) -> None:
    key, _ = played
    audit = stored("audit", key).document
    assert all(row["verified"] for row in audit["chain"])
    assert {row["table"] for row in audit["chain"]} == set(
        Table.objects.values_list("name", flat=True)
    )
    assert audit["replay"]["rounds_replayed"] >= 2 * ROUNDS
    assert audit["replay"]["differences"] == []
    assert audit["findings"]["payout_mismatches"] == 0


def test_the_audit_split_by_table_across_workers_finds_the_same_as_in_one_pass(
    played: tuple[ShiftKey, list[TablePlay]], eager_celery: None
) -> None:
    key, _ = played
    in_one_pass = stored("audit", key).document
    job = start_run(Report.Kind.AUDIT, key, reprint=True)
    job.refresh_from_db()
    assert (job.status, job.progress_percent) == (JobRun.Status.SUCCEEDED, 100)
    split = Report.objects.get(pk=job.detail["report_id"]).document
    assert split["version"] == 2
    for section in ("chain", "replay", "corrections", "manual_entries", "findings", "watermark"):
        assert split[section] == in_one_pass[section]


def test_audit_findings_survive_the_trip_between_jobs(
    played: tuple[ShiftKey, list[TablePlay]],
) -> None:
    key, _ = played
    for table in Table.objects.all():
        findings = table_findings(table, key)
        assert findings_from_json(findings_to_json(findings)) == findings


def test_the_demo_dealer_confirms_at_each_table_then_goes_back_to_their_own(
    staff: Staff,
) -> None:
    tables = simulation_tables(2)
    dealer_assign(table_id=tables[0].pk, dealer=staff.dealer, by=staff.pit_boss)
    simulate_shift(tables, rounds=1, seed=3, staff=staff, run_reports=False)
    spells = DealerAssignment.objects.filter(dealer=staff.dealer).order_by("pk")
    assert [spell.table_id for spell in spells] == [tables[0].pk, tables[1].pk, tables[0].pk]
    assert spells.last().ended_at is None  # type: ignore[union-attr]
