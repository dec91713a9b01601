from report_samples import HASH_T1, clean_audit, troubled_audit


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
        "manual_entries_disagreeing": 1,
        "manual_entries_without_shoe_read": 1,
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
