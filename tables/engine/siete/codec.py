"""The stored form of a Siete y Medio state (see tables.engine.state_codec)."""

from __future__ import annotations

from tables.engine.siete.settings import SieteSettings
from tables.engine.siete.settlement import BoxResult
from tables.engine.siete.state import Box, HandCard, Round, Shoe, SieteState
from tables.engine.state_codec import StateCodec

# Raise when a state field changes meaning without changing its name.
ENGINE_VERSION = 1

SIETE_STATE_CODEC = StateCodec(
    engine_version=ENGINE_VERSION,
    classes=(SieteState, SieteSettings, Shoe, Round, Box, HandCard, BoxResult),
)
