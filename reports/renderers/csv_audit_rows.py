"""The rows of the audit report's CSV table: one finding per row."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from reports.renderers.csv_rows import report_row, signers_text

Row = dict[str, Any]
Doc = Mapping[str, Any]

AUDIT_COLUMNS = (
    "gaming_day",
    "shift",
    "section",
    "table",
    "round",
    "kind",
    "at",
    "people",
    "detail",
)


def audit_rows(document: Doc) -> Iterator[Row]:
    base = {"gaming_day": document["gaming_day"], "shift": document["shift"]}
    yield {**base, **report_row(document, label="kind", text="detail")}
    for check in document["chain"]:
        yield {
            **base,
            "section": "chain",
            "table": check["table"],
            "kind": "verified" if check["verified"] else "broken",
            "detail": f"events {check['events_checked']}; head {check['head_seq']} "
            f"{check['head_hash']}; first bad {check['first_bad_seq'] or '-'}",
        }
    for difference in document["replay"]["differences"]:
        yield {
            **base,
            "section": "replay",
            "table": difference["table"],
            "round": difference["round_id"],
            "kind": difference["field"],
            "detail": f"recorded {difference['recorded']}; replayed {difference['replayed']}",
        }
    for fix in document["corrections"]:
        yield {
            **base,
            "section": "correction",
            "table": fix["table"],
            "round": fix["round_id"],
            "kind": fix["kind"],
            "at": fix["at"],
            "people": signers_text(
                requested_by=fix["requested_by"], approved_by=fix["approved_by"]
            ),
            "detail": fix["reason"] + (" [SELF-APPROVED]" if fix["self_approved"] else ""),
        }
    yield from ({**base, **row} for row in _audit_exception_rows(document))


def _audit_exception_rows(document: Doc) -> Iterator[Row]:
    for entry in document["manual_entries"]:
        yield {
            "section": "manual_entry",
            "table": entry["table"],
            "round": entry["round_id"],
            "kind": entry["status"],
            "at": entry["at"],
            "detail": f"{entry['position']}: manual {entry['manual_card']}; "
            f"shoe {entry['shoe_card'] or '-'}",
        }
    for mismatch in document["payout_mismatches"]:
        yield {
            "section": "payout_mismatch",
            "table": mismatch["table"],
            "round": mismatch["round_id"],
            "kind": mismatch["direction"],
            "detail": f"box {mismatch['box']}: computed {mismatch['computed']}; "
            f"paid {mismatch['paid']}; difference {mismatch['difference']}",
        }
    for card in document["card_anomalies"]:
        yield {
            "section": "card_anomaly",
            "table": card["table"],
            "round": card["round_id"],
            "kind": card["kind"],
            "at": card["at"],
            "detail": card["card"] or "",
        }
    for incident in document["device_incidents"]:
        yield {
            "section": "device_incident",
            "table": incident["table"],
            "kind": incident["kind"],
            "at": incident["at"],
            "detail": f"{incident['device']}: {incident['detail']}",
        }
    for violation in document["bank_rule_violations"]:
        yield {
            "section": "bank_rule_violation",
            "table": violation["table"],
            "round": violation["round_id"],
            "at": violation["at"],
            "detail": violation["detail"],
        }
    for kind, count in document["alerts_by_kind"].items():
        yield {"section": "alerts", "kind": kind, "detail": count}
    for name, count in document["findings"].items():
        yield {"section": "finding", "kind": name, "detail": count}
