from collections.abc import Sequence
from datetime import UTC, datetime

from report_samples import MESA_1_ALERT, context

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
from reports.builders.document import Document
from reports.builders.inputs import Alert

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


def test_each_table_chain_head_is_reported_and_sets_the_watermark() -> None:
    report = clean_audit()
    assert [row["table"] for row in report["chain"]] == ["T1", "T2"]
    assert report["chain"][0]["head_hash"] == HASH_T1
    assert report["watermark"] == {"T1": 412, "T2": 97}


def test_a_clean_shift_has_no_findings() -> None:
    report = clean_audit()
    assert report["clean"] is True
    assert set(report["findings"].values()) == {0}
    assert report["manual_entries"][0]["status"] == "agrees"  # card codes ignore case
    assert report["corrections"][0]["self_approved"] is False
    assert report["signatures"] == [{"role": "auditor", "name": "aurora"}]


def test_every_exception_is_listed_and_counted() -> None:
    report = troubled_audit()
    assert report["clean"] is False
    assert report["findings"] == {
        "chain_breaks": 1,
        "replay_differences": 1,
        "self_approved_corrections": 1,
        "manual_entries_disagreeing": 2,
        "payout_mismatches": 1,
        "card_anomalies": 1,
        "device_incidents": 2,
        "bank_rule_violations": 1,
    }
    assert report["chain"][0]["first_bad_seq"] == 233
    assert report["replay"]["rounds_replayed"] == 40


def test_corrections_show_who_asked_and_who_approved_in_table_order() -> None:
    corrections = troubled_audit()["corrections"]
    assert [(row["table"], row["requested_by"], row["approved_by"]) for row in corrections] == [
        ("T1", "dana", "mara"),
        ("T2", "pablo", "pablo"),
    ]
    assert [row["self_approved"] for row in corrections] == [False, True]
    assert corrections[0]["at"] == "2026-03-10T21:00:00Z"


def test_manual_entries_are_compared_with_the_shoe() -> None:
    statuses = [row["status"] for row in troubled_audit()["manual_entries"]]
    assert statuses == ["differs", "no_shoe_read"]


def test_payout_mismatches_show_the_difference_and_direction() -> None:
    (mismatch,) = troubled_audit()["payout_mismatches"]
    assert (mismatch["difference"], mismatch["direction"]) == (-2, "underpaid")


def test_device_incidents_are_in_time_order_and_alerts_are_counted_by_kind() -> None:
    report = troubled_audit()
    assert [row["kind"] for row in report["device_incidents"]] == ["offline", "tamper"]
    assert report["alerts_by_kind"] == {"misdrawn_card": 1, "payout_mismatch": 2}


def test_an_audit_of_a_floor_with_no_tables_still_reports() -> None:
    report = clean_audit(chain=[])
    assert report["chain"] == []
    assert report["watermark"] == {}
