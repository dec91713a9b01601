"""The stored form of a Seven-Card Stud state (see tables.engine.state_codec)."""

from __future__ import annotations

from tables.engine.state_codec import StateCodec
from tables.engine.stud.settings import StudSettings
from tables.engine.stud.state import (
    Betting,
    DueCard,
    HeldAction,
    SeatState,
    StreetRecord,
    StudState,
)

# Raise when a state field changes meaning without changing its name.
ENGINE_VERSION = 1

STUD_STATE_CODEC = StateCodec(
    engine_version=ENGINE_VERSION,
    classes=(StudState, StudSettings, SeatState, DueCard, Betting, HeldAction, StreetRecord),
)
