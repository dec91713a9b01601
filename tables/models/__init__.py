"""The floor's data: tables, rounds, the event log and its projections."""

from tables.models.alerts import Alert
from tables.models.corrections import CorrectionRequest
from tables.models.floor import DealerAssignment, Seat, Table
from tables.models.idempotency import IdempotencyRecord
from tables.models.log import TableEvent
from tables.models.roles import RoleGrant
from tables.models.rounds import Round
from tables.models.snapshots import EngineSnapshot, VerifiedCheckpoint

__all__ = [
    "Alert",
    "CorrectionRequest",
    "DealerAssignment",
    "EngineSnapshot",
    "IdempotencyRecord",
    "RoleGrant",
    "Round",
    "Seat",
    "Table",
    "TableEvent",
    "VerifiedCheckpoint",
]
