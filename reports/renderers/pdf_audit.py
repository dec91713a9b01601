"""The body of the audit report's PDF."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reportlab.platypus import Flowable, Paragraph

from reports.renderers.pdf_sections import STYLES, section

Doc = Mapping[str, Any]


def audit_sections(document: Doc) -> list[Flowable]:
    verdict = "No exceptions found." if document["clean"] else "Exceptions found: see below."
    return [
        Paragraph(verdict, STYLES["body"]),
        *section("Findings", [["Finding", "Count"], *document["findings"].items()]),
        *section("Hash chain", _chain_rows(document), empty="No table events in this shift."),
        *section(
            f"Replay ({document['replay']['rounds_replayed']} rounds)",
            [["Table", "Round", "Field", "Recorded", "Replayed"]]
            + [
                [d["table"], d["round_id"], d["field"], d["recorded"], d["replayed"]]
                for d in document["replay"]["differences"]
            ],
            empty="Every round replays to what was recorded.",
        ),
        *section("Corrections and voids", _correction_rows(document)),
        *section("Manual entries against shoe reads", _manual_rows(document)),
        *section(
            "Payout mismatches",
            [["Table", "Round", "Box", "Computed", "Paid", "Difference"]]
            + [
                [m["table"], m["round_id"], m["box"], m["computed"], m["paid"], m["difference"]]
                for m in document["payout_mismatches"]
            ],
        ),
        *section(
            "Duplicate or unidentified cards",
            [["Table", "Round", "Kind", "Card", "At"]]
            + [
                [c["table"], c["round_id"], c["kind"], c["card"], c["at"]]
                for c in document["card_anomalies"]
            ],
        ),
        *section(
            "Device incidents",
            [["Device", "Table", "Kind", "At", "Detail"]]
            + [
                [i["device"], i["table"], i["kind"], i["at"], i["detail"]]
                for i in document["device_incidents"]
            ],
        ),
        *section(
            "Bank-rule violation attempts",
            [["Table", "Round", "At", "Detail"]]
            + [
                [v["table"], v["round_id"], v["at"], v["detail"]]
                for v in document["bank_rule_violations"]
            ],
        ),
        *section("Alerts by kind", [["Kind", "Count"], *document["alerts_by_kind"].items()]),
    ]


def _chain_rows(document: Doc) -> list[list[Any]]:
    rows: list[list[Any]] = [["Table", "Chain", "Events", "Head seq", "Head hash", "First bad"]]
    for check in document["chain"]:
        rows.append(
            [
                check["table"],
                "verified" if check["verified"] else "BROKEN",
                check["events_checked"],
                check["head_seq"],
                check["head_hash"],
                check["first_bad_seq"],
            ]
        )
    return rows


def _correction_rows(document: Doc) -> list[list[Any]]:
    rows: list[list[Any]] = [["Table", "Round", "Kind", "Reason", "Asked by", "Approved by", "At"]]
    for fix in document["corrections"]:
        approver = fix["approved_by"] + (" (SELF-APPROVED)" if fix["self_approved"] else "")
        rows.append(
            [
                fix["table"],
                fix["round_id"],
                fix["kind"],
                fix["reason"],
                fix["requested_by"],
                approver,
                fix["at"],
            ]
        )
    return rows


def _manual_rows(document: Doc) -> list[list[Any]]:
    rows: list[list[Any]] = [["Table", "Round", "Position", "Manual", "Shoe", "Status"]]
    for entry in document["manual_entries"]:
        rows.append(
            [
                entry["table"],
                entry["round_id"],
                entry["position"],
                entry["manual_card"],
                entry["shoe_card"],
                entry["status"],
            ]
        )
    return rows
