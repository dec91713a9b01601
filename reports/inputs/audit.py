"""The audit report's findings, gathered from the verifier, the log and its projections."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, fields, replace
from datetime import datetime
from typing import Any

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
from reports.builders.inputs import Alert
from reports.inputs.rounds import payout_rows, shift_rounds, shift_window
from reports.shifts import ShiftKey
from tables.disclosure import NOT_OVER, NOTHING_HIDDEN, Disclosure, RoundSecrets
from tables.engine.custody.codec import SLIP_VOIDED
from tables.models import Alert as AlertRow
from tables.models import CorrectionRequest, Round, Table, TableEvent
from tables.verification import verify_table

CARD_ANOMALY_ALERTS = frozenset({"duplicate_card", "misdrawn_card", "unknown_card"})
BANK_RULE_ALERTS = frozenset({"bank_rule_violation"})
# Events that record a card as it left the shoe; their payload says who read it.
CARD_EVENTS = ("card.dealt", "card.burned")
# A recorded payout replaced by an approved correction; its payload names both people.
PAYOUT_CORRECTED = "payout.corrected"
_ROUND_PROBLEM = re.compile(r"round (\d+): (.*)")
_SEQ_PROBLEM = re.compile(r"seq (\d+): (.*)")


@dataclass
class AuditFindings:
    chain: list[ChainCheck] = field(default_factory=list)
    rounds_replayed: int = 0
    replay_differences: list[ReplayDifference] = field(default_factory=list)
    corrections: list[Correction] = field(default_factory=list)
    manual_entries: list[ManualEntry] = field(default_factory=list)
    payout_mismatches: list[PayoutMismatch] = field(default_factory=list)
    card_anomalies: list[CardAnomaly] = field(default_factory=list)
    device_incidents: list[DeviceIncident] = field(default_factory=list)
    bank_rule_violations: list[BankRuleViolation] = field(default_factory=list)
    alerts: list[Alert] = field(default_factory=list)


def audit_findings(key: ShiftKey) -> AuditFindings:
    """The whole floor's findings, one table after the other (the job splits them instead)."""
    return merge_findings([table_findings(table, key) for table in Table.objects.order_by("name")])


def table_findings(table: Table, key: ShiftKey) -> AuditFindings:
    findings = AuditFindings()
    window = shift_window(table, key)
    _verify(table, findings, window)
    if window is not None:
        _shift_findings(table, key, window, findings)
    return without_live_cards(table, findings)


def without_live_cards(table: Table, findings: AuditFindings) -> AuditFindings:
    """A provisional audit runs while rounds are live: no finding names a card still face down
    (tables.disclosure). Once the round is over, a re-run shows every card."""
    live = {str(row.number): row for row in Round.objects.filter(table=table, status__in=NOT_OVER)}
    if not live:
        return findings
    disclosure = Disclosure()
    anywhere = disclosure.of_live_rounds(table.pk)
    for name in LIST_FIELDS:
        records = getattr(findings, name)
        for index, record in enumerate(records):
            round_id = getattr(record, "round_id", None)
            if round_id in live:
                secrets = disclosure.of(live[round_id])
            else:
                secrets = anywhere if not round_id else NOTHING_HIDDEN
            records[index] = _disclosed(record, secrets)
    return findings


def _disclosed(record: Any, secrets: RoundSecrets) -> Any:
    if not secrets.hidden:
        return record
    texts = {f.name: getattr(record, f.name) for f in fields(record)}
    changes = {name: secrets.text(value) for name, value in texts.items() if isinstance(value, str)}
    return replace(record, **changes)


def merge_findings(parts: list[AuditFindings]) -> AuditFindings:
    merged = AuditFindings()
    for part in parts:
        merged.rounds_replayed += part.rounds_replayed
        for name in LIST_FIELDS:
            getattr(merged, name).extend(getattr(part, name))
    return merged


def findings_to_json(findings: AuditFindings) -> dict[str, Any]:
    """Plain JSON, to pass one table's findings from its job to the audit's chord body."""
    data: dict[str, Any] = {"rounds_replayed": findings.rounds_replayed}
    for name in LIST_FIELDS:
        data[name] = [
            {key: _json_value(value) for key, value in asdict(record).items()}
            for record in getattr(findings, name)
        ]
    return data


def findings_from_json(data: dict[str, Any]) -> AuditFindings:
    findings = AuditFindings(rounds_replayed=int(data["rounds_replayed"]))
    for name, record_class in LIST_FIELDS.items():
        for row in data[name]:
            values = {
                key: datetime.fromisoformat(value) if key in TIME_FIELDS and value else value
                for key, value in row.items()
            }
            getattr(findings, name).append(record_class(**values))
    return findings


def _json_value(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


LIST_FIELDS: dict[str, type] = {
    "chain": ChainCheck,
    "replay_differences": ReplayDifference,
    "corrections": Correction,
    "manual_entries": ManualEntry,
    "payout_mismatches": PayoutMismatch,
    "card_anomalies": CardAnomaly,
    "device_incidents": DeviceIncident,
    "bank_rule_violations": BankRuleViolation,
    "alerts": Alert,
}
TIME_FIELDS = frozenset({"at", "raised_at"})


def _verify(table: Table, findings: AuditFindings, window: tuple[int, int] | None) -> None:
    """The chain from the last checkpoint verified before the shift opened (the first event
    without one), and every round since replayed through the engine; a sound chain is the
    checkpoint at the shift's end, where the next shift's audit starts."""
    result = verify_table(
        table,
        from_checkpoint=True,
        checkpoints_up_to=window[0] if window else None,
        checkpoint=window is not None,
        checkpoint_at=window[1] if window else None,
    )
    chain_problems: list[str] = []
    round_problems: list[str] = []
    for problem in result.problems:
        (round_problems if _ROUND_PROBLEM.search(problem) else chain_problems).append(problem)
    first_bad = _SEQ_PROBLEM.search(chain_problems[0]) if chain_problems else None
    findings.chain.append(
        ChainCheck(
            table=table.name,
            verified=not chain_problems,
            events_checked=result.events_checked,
            head_seq=result.head_seq,
            head_hash=result.head_hash,
            first_bad_seq=int(first_bad.group(1)) if first_bad else None,
            detail="; ".join(chain_problems),
        )
    )
    findings.rounds_replayed += result.rounds_replayed
    for problem in round_problems:
        match = _ROUND_PROBLEM.search(problem)
        assert match is not None
        findings.replay_differences.append(
            ReplayDifference(table.name, match.group(1), "audit_view", "projection", problem)
        )


def _shift_findings(
    table: Table, key: ShiftKey, window: tuple[int, int], findings: AuditFindings
) -> None:
    _corrections(table, key, window, findings)
    _manual_entries(table, window, findings)
    _payout_mismatches(table, window, findings)
    # The shoe's incidents are appended as `device.<kind>` facts (devices/registry/alerts.py).
    devices = TableEvent.objects.filter(
        table=table, seq__range=window, type__startswith="device."
    ).order_by("seq")
    for event in devices:
        if event.payload.get("alert") is False:
            continue  # a shoe heard from again, say: a fact, not an incident
        findings.device_incidents.append(
            DeviceIncident(
                device=str(event.payload.get("serial") or event.payload.get("device", "")),
                table=table.name,
                kind=event.type.removeprefix("device."),
                at=event.occurred_at,
                detail=str(event.payload.get("message") or event.payload.get("detail", "")),
            )
        )
    _alerts(table, window, findings)


def _payout_mismatches(table: Table, window: tuple[int, int], findings: AuditFindings) -> None:
    """Boxes whose payout still differs from the rules, and those an approved correction put
    right (listed as corrected, with who asked and who approved)."""
    rounds = shift_rounds(table, window, keys=("results",))
    # Only the settled boxes: the rest of each audit view is the verifier's business.
    for round_ in rounds:
        for box, computed, paid in payout_rows(round_.state):
            if computed != paid:
                findings.payout_mismatches.append(
                    PayoutMismatch(table.name, str(round_.number), box, computed, paid)
                )
    corrections = TableEvent.objects.filter(
        table=table, type=PAYOUT_CORRECTED, round__number__in=[r.number for r in rounds]
    ).values_list("round__number", "payload")
    for number, data in corrections.order_by("seq"):
        if data.get("difference") == 0 and data.get("previous") != data.get("expected"):
            findings.payout_mismatches.append(
                PayoutMismatch(
                    table.name,
                    str(number),
                    data["box"],
                    data["expected"],
                    data["previous"],
                    corrected=True,
                    requested_by=str(data.get("requested_by", "")),
                    approved_by=str(data.get("approved_by", "")),
                )
            )


def _corrections(
    table: Table, key: ShiftKey, window: tuple[int, int], findings: AuditFindings
) -> None:
    decided = CorrectionRequest.objects.filter(
        table=table, status=CorrectionRequest.Status.APPROVED
    ).select_related("round", "requested_by", "decided_by")
    for row in decided:
        round_last = row.round.last_seq if row.round else None
        if round_last is not None and not window[0] <= round_last <= window[1]:
            continue
        findings.corrections.append(
            Correction(
                table=table.name,
                round_id=str(row.round.number) if row.round else None,
                kind=str(row.command.get("type", "correction")),
                reason=row.reason,
                requested_by=row.requested_by.get_username(),
                approved_by=row.decided_by.get_username() if row.decided_by else "",
                at=row.decided_at or row.requested_at,
            )
        )
    voids = TableEvent.objects.filter(
        table=table,
        type=SLIP_VOIDED,
        payload__gaming_day=key.gaming_day.isoformat(),
        payload__shift=key.shift,
    )
    for event in voids.order_by("seq"):
        data = event.payload
        findings.corrections.append(
            Correction(
                table=table.name,
                round_id=None,
                kind=f"void_{data['slip_type']}_slip_{data['slip_number']}",
                reason=data["reason"],
                requested_by=data["requested_by"],
                approved_by=data["approved_by"],
                at=event.occurred_at,
            )
        )


def _manual_entries(table: Table, window: tuple[int, int], findings: AuditFindings) -> None:
    """A card typed on the tablet, against a shoe read of the same physical card if any."""
    cards = TableEvent.objects.filter(table=table, seq__range=window, type__in=CARD_EVENTS)
    typed = list(cards.filter(payload__source="tablet").select_related("round").order_by("seq"))
    if not typed:
        return
    physical_ids = {event.payload.get("physical_id") for event in typed} - {None}
    shoe_reads: dict[tuple[int | None, Any], Any] = {
        (round_id, physical_id): card
        for round_id, physical_id, card in cards.filter(
            payload__source="shoe", payload__physical_id__in=sorted(physical_ids)
        ).values_list("round_id", "payload__physical_id", "payload__card")
    }
    for event in typed:
        card = event.payload.get("card")
        if not card:
            continue
        findings.manual_entries.append(
            ManualEntry(
                table=table.name,
                round_id=str(event.round.number) if event.round else "",
                position=f"seq {event.seq}",
                manual_card=str(card),
                shoe_card=shoe_reads.get((event.round_id, event.payload.get("physical_id"))),
                at=event.occurred_at,
            )
        )


def _alerts(table: Table, window: tuple[int, int], findings: AuditFindings) -> None:
    rows = AlertRow.objects.filter(table=table, event__seq__range=window).select_related("round")
    for row in rows.order_by("event__seq"):
        round_id = str(row.round.number) if row.round else None
        findings.alerts.append(Alert(table.name, row.code, row.raised_at, row.message, round_id))
        if row.code in CARD_ANOMALY_ALERTS:
            card = row.details.get("card") if isinstance(row.details, dict) else None
            findings.card_anomalies.append(
                CardAnomaly(table.name, round_id, row.code, card, row.raised_at)
            )
        if row.code in BANK_RULE_ALERTS and round_id is not None:
            findings.bank_rule_violations.append(
                BankRuleViolation(table.name, round_id, row.message, row.raised_at)
            )
