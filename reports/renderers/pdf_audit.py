"""The body of the audit report's PDF."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from reportlab.platypus import Flowable, Paragraph

from reports.renderers.labels import label
from reports.renderers.language import local_time
from reports.renderers.pdf_layout import STYLES, section

Doc = Mapping[str, Any]


def audit_sections(document: Doc) -> list[Flowable]:
    verdict = _("No exceptions found.") if document["clean"] else _("Exceptions found: see below.")
    replayed = document["replay"]["rounds_replayed"]
    return [
        Paragraph(verdict, STYLES["body"]),
        *section(
            _("Findings"),
            [[_("Finding"), _("Count")], *([label(k), n] for k, n in document["findings"].items())],
        ),
        *section(_("Hash chain"), _chain_rows(document), empty=_("No table events in this shift.")),
        *section(
            _("Head hashes"),
            [
                [_("Table"), _("Head hash")],
                *([c["table"], c["head_hash"]] for c in document["chain"]),
            ],
            empty=_("No table events in this shift."),
        ),
        *section(
            _("Replay (%(rounds)s rounds)") % {"rounds": replayed},
            [[_("Table"), _("Round"), _("Field"), _("Recorded"), _("Replayed")]]
            + [
                [d["table"], d["round_id"], d["field"], d["recorded"], d["replayed"]]
                for d in document["replay"]["differences"]
            ],
            empty=_("Every round replays to what was recorded."),
        ),
        *section(_("Corrections and voids"), _correction_rows(document)),
        *section(_("Manual entries against shoe reads"), _manual_rows(document)),
        *section(
            _("Payout mismatches"),
            [[_("Table"), _("Round"), _("Box"), _("Computed"), _("Paid"), _("Difference")]]
            + [
                [m["table"], m["round_id"], m["box"], m["computed"], m["paid"], m["difference"]]
                for m in document["payout_mismatches"]
            ],
        ),
        *section(
            _("Duplicate or unidentified cards"),
            [[_("Table"), _("Round"), _("Kind"), _("Card"), _("At")]]
            + [
                [c["table"], c["round_id"], label(c["kind"]), c["card"], local_time(c["at"])]
                for c in document["card_anomalies"]
            ],
        ),
        *section(
            _("Device incidents"),
            [[_("Device"), _("Table"), _("Kind"), _("At"), _("Detail")]]
            + [
                [i["device"], i["table"], label(i["kind"]), local_time(i["at"]), i["detail"]]
                for i in document["device_incidents"]
            ],
        ),
        *section(
            _("Bank-rule violation attempts"),
            [[_("Table"), _("Round"), _("At"), _("Detail")]]
            + [
                [v["table"], v["round_id"], local_time(v["at"]), v["detail"]]
                for v in document["bank_rule_violations"]
            ],
        ),
        *section(
            _("Alerts by kind"),
            [
                [_("Kind"), _("Count")],
                *([label(kind), count] for kind, count in document["alerts_by_kind"].items()),
            ],
        ),
    ]


def _chain_rows(document: Doc) -> list[list[Any]]:
    rows: list[list[Any]] = [[_("Table"), _("Chain"), _("Events"), _("Head seq"), _("First bad")]]
    for check in document["chain"]:
        rows.append(
            [
                check["table"],
                _("verified") if check["verified"] else _("BROKEN"),
                check["events_checked"],
                check["head_seq"],
                check["first_bad_seq"],
            ]
        )
    return rows


def _correction_rows(document: Doc) -> list[list[Any]]:
    rows: list[list[Any]] = [
        [_("Table"), _("Round"), _("Kind"), _("Reason"), _("Asked by"), _("Approved by"), _("At")]
    ]
    for fix in document["corrections"]:
        approver = fix["approved_by"]
        if fix["self_approved"]:
            approver += " (" + _("SELF-APPROVED") + ")"
        rows.append(
            [
                fix["table"],
                fix["round_id"],
                _correction_kind(fix["kind"]),
                fix["reason"],
                fix["requested_by"],
                approver,
                local_time(fix["at"]),
            ]
        )
    return rows


def _correction_kind(kind: str) -> str:
    """``void_fill_slip_1002`` is the void of fill slip 1002; other kinds are commands."""
    parts = kind.split("_")
    if len(parts) == 4 and parts[0] == "void" and parts[2] == "slip" and parts[3].isdigit():
        return _("%(slip_type)s slip %(number)s voided") % {
            "slip_type": label(parts[1]),
            "number": parts[3],
        }
    return label(kind)


def _manual_rows(document: Doc) -> list[list[Any]]:
    rows: list[list[Any]] = [
        [_("Table"), _("Round"), _("Position"), _("Manual"), _("Shoe"), _("Status")]
    ]
    for entry in document["manual_entries"]:
        rows.append(
            [
                entry["table"],
                entry["round_id"],
                entry["position"],
                entry["manual_card"],
                entry["shoe_card"],
                label(entry["status"]),
            ]
        )
    return rows
