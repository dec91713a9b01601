"""How often a web worker's interpreter passes between its threads.

A worker runs its event loop (the sockets, HTTP parsing, the notices) and its request threads
(casino/asgi_handler.py) in one interpreter, and a thread that waits for it (a request back
from PostgreSQL, the loop with an answer to send) gets it only when the running thread lets
go: at its next wait for I/O or after the switch interval, 5 ms by default. A request crosses
several such waits, and under the floor's load each could cost up to the interval: at
1.1 requests/s per table on 200 tables, the writes' p99 was about twice that of 1 ms
(docs/PERFORMANCE.md, "The switch interval"). The shorter interval costs a little more
switching, which the measurements did not show.
"""

from __future__ import annotations

import sys

from casino.environment import env_int

DEFAULT_MILLISECONDS = 1


def set_switch_interval() -> float:
    """Set the interpreter's switch interval from CASINO_SWITCH_INTERVAL_MS (whole
    milliseconds, at least 1); return it in seconds."""
    milliseconds = max(1, env_int("CASINO_SWITCH_INTERVAL_MS", DEFAULT_MILLISECONDS))
    sys.setswitchinterval(milliseconds / 1000)
    return sys.getswitchinterval()
