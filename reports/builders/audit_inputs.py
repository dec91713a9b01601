"""What the audit report is built from: findings the verifier, the replay and the log already
computed. Each record is plain data; the audit builder only orders, counts and flags them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class ChainCheck:
    """One table's hash-chain verification over the events the report covers."""

    table: str
    verified: bool
    events_checked: int
    head_seq: int
    head_hash: str
    first_bad_seq: int | None = None
    detail: str = ""


@dataclass(frozen=True)
class ReplayDifference:
    """A round whose replay from the log disagrees with what was recorded."""

    table: str
    round_id: str
    field: str
    recorded: str
    replayed: str


@dataclass(frozen=True)
class Correction:
    """A correction or void: who asked, who approved, and why (RULES.md: different people)."""

    table: str
    round_id: str | None
    kind: str
    reason: str
    requested_by: str
    approved_by: str
    at: datetime


@dataclass(frozen=True)
class ManualEntry:
    """A card typed on the tablet, beside what the shoe read for the same position, if anything."""

    table: str
    round_id: str
    position: str
    manual_card: str
    shoe_card: str | None
    at: datetime


@dataclass(frozen=True)
class PayoutMismatch:
    """What the dealer paid or collected on a box against what the rules computed; a mismatch
    settled by an approved correction names who asked for it and who approved it."""

    table: str
    round_id: str
    box: int
    computed: int
    paid: int
    corrected: bool = False
    requested_by: str = ""
    approved_by: str = ""


@dataclass(frozen=True)
class CardAnomaly:
    """A duplicate or unidentified card."""

    table: str
    round_id: str | None
    kind: str
    card: str | None
    at: datetime


@dataclass(frozen=True)
class DeviceIncident:
    """A shoe that went offline, misread or reported tampering."""

    device: str
    table: str | None
    kind: str
    at: datetime
    detail: str = ""


@dataclass(frozen=True)
class BankRuleViolation:
    """An attempt against the bank's drawing rule (a stand below 5, a draw at 5 or more)."""

    table: str
    round_id: str
    detail: str
    at: datetime
