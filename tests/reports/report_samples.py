"""Hand-computed shifts shared by the report tests. Every figure is worked out in the comments."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime
from fractions import Fraction

from reports.builders.audit import build_audit_report
from reports.builders.audit_inputs import (
    BankRuleViolation,
    CardAnomaly,
    ChainCheck,
    Correction,
    DeviceIncident,
    ManualEntry,
    PayoutMismatch,
    ReplayDifference,
)
from reports.builders.document import Document, ReportContext
from reports.builders.inputs import Alert, TableInfo
from reports.builders.table_shift import build_table_shift_report, report_rows
from reports.figures import Payout, RoundSummary
from tables.engine.custody import (
    BuyIn,
    Closer,
    Credit,
    CustodyFact,
    CustodyState,
    DropCounted,
    Fill,
    Opener,
    SlipType,
    SlipVoided,
    fold_all,
    new_state,
)

CHIPS = (1, 5, 25, 100)
SERIES: dict[SlipType, range] = {"fill": range(1001, 1011), "credit": range(501, 511)}
SHIFT_ENDS_AT = datetime(2026, 3, 11, 5, 0, tzinfo=UTC)
AFTER_THE_SHIFT = datetime(2026, 3, 11, 5, 10, tzinfo=UTC)

MESA_1 = TableInfo("T1", "Mesa 1", "siete_y_medio")
STUD_2 = TableInfo("T2", "Stud 2", "seven_card_stud")
MESA_3 = TableInfo("T3", "Mesa 3", "siete_y_medio")
MESA_4 = TableInfo("T4", "Mesa 4", "siete_y_medio")


def context(*, generated_at: datetime = AFTER_THE_SHIFT, version: int = 1) -> ReportContext:
    return ReportContext(
        gaming_day=date(2026, 3, 10),
        shift="night",
        generated_at=generated_at,
        shift_ends_at=SHIFT_ENDS_AT,
        version=version,
    )


def ledger(table: str, *facts: CustodyFact) -> CustodyState:
    return fold_all(new_state(table, CHIPS, slip_series=SERIES), facts)


def fill(number: int, chips: dict[int, int]) -> Fill:
    return Fill(number, chips, requested_by="pablo", issued_by="carla", confirmed_by="dana")


def mesa_1_facts() -> tuple[CustodyFact, ...]:
    """Opener 3350, fills 1500 (slip 1002 void), credit 500, buy-ins 2250, closer 2685,
    counted drop 2400: win = 2400 + 2685 + 500 - 3350 - 1500 = 735; hold 735/2400 = 30.625 %."""
    return (
        Opener({100: 20, 25: 40, 5: 60, 1: 50}, dealer="dana", pit_boss="pablo"),
        fill(1001, {100: 10, 25: 20}),
        fill(1002, {25: 8}),
        SlipVoided("fill", 1002, "written for the wrong table", "pablo", "mara"),
        Credit(501, {100: 5}, requested_by="pablo", received_by="carla", confirmed_by="dana"),
        BuyIn(300),
        BuyIn(1200),
        BuyIn(750),
        Closer({100: 12, 25: 50, 5: 40, 1: 35}, dealer="dana", pit_boss="pablo"),
        DropCounted(2400, counted_by="team-b"),
    )


def mesa_1_rounds() -> list[RoundSummary]:
    """Handle 175, payouts 40 + 37 + 30 = 107, house net -20 - 37 = -57, breakage 0.50."""
    return [
        RoundSummary(
            "r1",
            handle=100,
            house_net=-20,
            boxes=3,
            payouts=(Payout("real", 40), Payout("puntaje", 30)),
            busts=1,
        ),
        RoundSummary(
            "r2",
            handle=75,
            house_net=-37,
            boxes=2,
            payouts=(Payout("siete_y_medio", 37),),
            pushes=1,
            breakage=Fraction(1, 2),
        ),
        RoundSummary("r3", handle=60, house_net=0, boxes=2, voided=True),
    ]


MESA_1_ALERT = Alert(
    "T1",
    "payout_mismatch",
    datetime(2026, 3, 10, 23, 15, tzinfo=UTC),
    "Box 3 was paid 35; the rules say 37.",
    "r2",
)


def mesa_1_report(
    *, ctx: ReportContext | None = None, facts: tuple[CustodyFact, ...] = ()
) -> Document:
    """Theoretical win 175 x 3 % = 5.25; actual -57, so actual less theoretical is -62.25."""
    return build_table_shift_report(
        context=ctx or context(),
        table=MESA_1,
        ledger=ledger("T1", *(facts or mesa_1_facts())),
        rounds=mesa_1_rounds(),
        house_edge=Fraction(3, 100),
        alerts=[MESA_1_ALERT],
        watermark={"T1": 412},
        report_rows=report_rows("siete_y_medio"),
    )


def stud_2_report() -> Document:
    """Rake 3 + 1 and 2: revenue 6. Buy-ins 250 + 150 = 400, counted drop 400."""
    facts = (
        Opener({5: 100}, dealer="dora", pit_boss="pablo"),
        BuyIn(250),
        BuyIn(150),
        Closer({5: 100}, dealer="dora", pit_boss="pablo"),
        DropCounted(400, counted_by="team-b"),
    )
    hands = [
        RoundSummary("h1", handle=80, house_net=4, boxes=4, rake_by_pot=(3, 1)),
        RoundSummary("h2", handle=40, house_net=2, boxes=3, rake_by_pot=(2,)),
        RoundSummary("h3", handle=6, house_net=0, boxes=3),
    ]
    return build_table_shift_report(
        context=context(),
        table=STUD_2,
        ledger=ledger("T2", *facts),
        rounds=hands,
        house_edge=None,
        alerts=[],
        watermark={"T2": 97},
        report_rows=report_rows("seven_card_stud"),
    )


def mesa_3_facts() -> tuple[CustodyFact, ...]:
    """No activity: opener 1000, closer 1000, counted drop 0, so win 0 and no hold."""
    return (
        Opener({25: 40}, dealer="dino", pit_boss="pablo"),
        Closer({25: 40}, dealer="dino", pit_boss="pablo"),
        DropCounted(0, counted_by="team-b"),
    )


def mesa_3_report() -> Document:
    return build_table_shift_report(
        context=context(),
        table=MESA_3,
        ledger=ledger("T3", *mesa_3_facts()),
        rounds=[],
        house_edge=Fraction(3, 100),
        alerts=[],
        watermark={"T3": 2},
    )


def mesa_4_facts() -> tuple[CustodyFact, ...]:
    """A losing shift: win = 200 + 200 + 0 - 1000 - 500 = -1100; hold -1100/200 = -550 %."""
    return (
        Opener({100: 10}, dealer="dana", pit_boss="pablo"),
        fill(1003, {100: 5}),
        BuyIn(200),
        Closer({100: 2}, dealer="dana", pit_boss="pablo"),
        DropCounted(200, counted_by="team-b"),
    )


def mesa_4_report() -> Document:
    return build_table_shift_report(
        context=context(),
        table=MESA_4,
        ledger=ledger("T4", *mesa_4_facts()),
        rounds=[],
        house_edge=Fraction(3, 100),
        alerts=[],
        watermark={"T4": 30},
    )


HASH_T1 = "a" * 64
HASH_T2 = "b" * 64


def at(hour: int, minute: int) -> datetime:
    return datetime(2026, 3, 10, hour, minute, tzinfo=UTC)


def sound_chain() -> list[ChainCheck]:
    return [
        ChainCheck("T2", True, events_checked=97, head_seq=97, head_hash=HASH_T2),
        ChainCheck("T1", True, events_checked=412, head_seq=412, head_hash=HASH_T1),
    ]


def clean_audit(chain: Sequence[ChainCheck] | None = None) -> Document:
    return build_audit_report(
        context=context(),
        chain=sound_chain() if chain is None else chain,
        rounds_replayed=40,
        replay_differences=[],
        corrections=[
            Correction("T1", "r2", "card.replaced", "shoe misread", "dana", "pablo", at(23, 5))
        ],
        manual_entries=[ManualEntry("T1", "r2", "box 2 card 1", "7o", "7O", at(23, 1))],
        payout_mismatches=[],
        card_anomalies=[],
        device_incidents=[],
        bank_rule_violations=[],
        alerts=[],
        auditor="aurora",
    )


def troubled_audit() -> Document:
    chain = [
        *sound_chain()[:1],
        ChainCheck("T1", False, 412, 412, HASH_T1, first_bad_seq=233, detail="hash mismatch"),
    ]
    return build_audit_report(
        context=context(),
        chain=chain,
        rounds_replayed=40,
        replay_differences=[ReplayDifference("T1", "r7", "payout.box3", "30", "37")],
        corrections=[
            Correction("T2", "h9", "hand.killed", "wrong card count", "pablo", "pablo", at(22, 0)),
            Correction("T1", "r2", "round.voided", "bank card exposed", "dana", "mara", at(21, 0)),
        ],
        manual_entries=[
            ManualEntry("T1", "r4", "bank card 1", "12C", "11C", at(21, 30)),
            ManualEntry("T1", "r5", "box 1 card 2", "3E", None, at(21, 40)),
        ],
        payout_mismatches=[PayoutMismatch("T1", "r2", box=3, computed=37, paid=35)],
        card_anomalies=[CardAnomaly("T1", "r6", "duplicate", "5B", at(22, 10))],
        device_incidents=[
            DeviceIncident("shoe-7", "T1", "tamper", at(23, 59), "lid opened"),
            DeviceIncident("shoe-3", "T2", "offline", at(20, 5)),
        ],
        bank_rule_violations=[BankRuleViolation("T1", "r8", "bank stood on 4", at(22, 30))],
        alerts=[MESA_1_ALERT, MESA_1_ALERT, Alert("T2", "misdrawn_card", at(21, 0), "x")],
        auditor="aurora",
    )
