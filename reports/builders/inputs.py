"""Plain input records the builders share; the services fill them from the log and projections."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from tables import games


@dataclass(frozen=True)
class TableInfo:
    table_id: str
    name: str
    game: str  # the game's binding key (`Table.game`)

    @property
    def house_banked(self) -> bool:
        """House-banked games earn the custody win; raked ones only the rake (the binding says)."""
        return games.house_banks(self.game)


@dataclass(frozen=True)
class Alert:
    """An alert the engine or the services raised during the shift."""

    table: str
    kind: str
    raised_at: datetime
    message: str
    round_id: str | None = None
