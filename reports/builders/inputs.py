"""Plain input records the builders share; the services fill them from the log and projections."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

SIETE_Y_MEDIO = "siete_y_medio"
STUD = "stud"
# House-banked games earn the custody win; poker earns only the rake (RULES.md §2.4).
HOUSE_BANKED_GAMES = frozenset({SIETE_Y_MEDIO})
GAMES = (SIETE_Y_MEDIO, STUD)


@dataclass(frozen=True)
class TableInfo:
    table_id: str
    name: str
    game: str

    @property
    def house_banked(self) -> bool:
        return self.game in HOUSE_BANKED_GAMES


@dataclass(frozen=True)
class Alert:
    """An alert the engine or the services raised during the shift."""

    table: str
    kind: str
    raised_at: datetime
    message: str
    round_id: str | None = None
