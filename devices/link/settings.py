"""Timings of the host side; tests shorten them, production keeps the protocol's defaults."""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LinkSettings:
    heartbeat_interval_s: float = 1.0
    missed_heartbeats: int = 3
    table_id: str = ""
    nak_min_interval_s: float = 0.1
    resync_interval_s: float = 0.3
    gap_report_after_resyncs: int = 5
    prompt_interval_s: float = 1.0
    auth_timeout_s: float = 3.0
    counters_interval_s: float = 5.0
    backoff_base_s: float = 0.1
    backoff_cap_s: float = 5.0
    read_timeout_s: float = 0.02
