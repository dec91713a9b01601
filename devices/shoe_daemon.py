"""The reader daemon of one shoe: its port, the link engine and the database sink.

One process per shoe, supervised, outside Celery (a worker's prefork pool and time limits do not
suit a process that must hold a serial port open and ACK within milliseconds).
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import DatabaseError, connection

from devices.django_sink import DjangoLinkSink
from devices.link.reader import ShoeLinkReader
from devices.link.settings import LinkSettings
from devices.link.sink import LinkCounters
from devices.models import Device
from devices.registry.enrollment import current_binding
from tables.engine.errors import NotAllowedNowError

logger = logging.getLogger(__name__)
TABLE_ID_SIZE = 16
DATABASE_RETRY_S = 1.0


@dataclass
class ShoeRun:
    """What a run did: the last reader's counters and how many readers it took."""

    serial: str
    url: str
    stop: threading.Event = field(default_factory=threading.Event)
    readers: int = 0
    database_failures: int = 0
    reader_failures: int = 0
    idle_exit: bool = False
    reader: ShoeLinkReader | None = None

    @property
    def counters(self) -> LinkCounters:
        return self.reader.counters if self.reader is not None else LinkCounters()


def port_of(serial: str, override: str | None) -> str:
    device = Device.objects.filter(serial=serial).first()
    if device is None:
        raise NotAllowedNowError(f"No device with serial {serial} is enrolled.", code="unknown")
    url = (override or device.port_url).strip()
    if not url:
        raise NotAllowedNowError(f"Device {serial} has no port URL; pass --port.", code="no_port")
    return url


def link_settings_for(serial: str, base: LinkSettings | None = None) -> LinkSettings:
    """The HOST_HELLO names the bound table, cut to the protocol's 16 ASCII characters."""
    device = Device.objects.get(serial=serial)
    binding = current_binding(device)
    name = binding.table.name if binding is not None else ""
    table_id = name.encode("ascii", "ignore")[:TABLE_ID_SIZE].decode("ascii")
    return dataclasses.replace(base or LinkSettings(), table_id=table_id)


def run_shoe(
    serial: str,
    port_override: str | None = None,
    *,
    settings: LinkSettings | None = None,
    exit_after_idle_s: float | None = None,
    run: ShoeRun | None = None,
    on_reader: Callable[[ShoeLinkReader], None] | None = None,
    sink_factory: Callable[[str], DjangoLinkSink] = DjangoLinkSink,
) -> ShoeRun:
    """Serve the shoe until `run.stop` is set (SIGTERM in the command) or the line stays idle.

    A database outage ends the current reader; a new one starts once the database answers, and
    the link's RESYNC from the last committed seq recovers whatever was not ACKed meanwhile.
    """
    url = port_of(serial, port_override)
    run = run or ShoeRun(serial, url)
    run.url = url
    watcher = None
    if exit_after_idle_s is not None:
        watcher = threading.Thread(
            target=_stop_when_idle, args=(run, exit_after_idle_s), daemon=True
        )
        watcher.start()
    try:
        while not run.stop.is_set():
            reader = ShoeLinkReader(
                url, sink_factory(serial), link_settings_for(serial, settings), stop=run.stop
            )
            run.reader = reader
            run.readers += 1
            if on_reader is not None:
                on_reader(reader)
            try:
                reader.run()
            except DatabaseError:
                run.database_failures += 1
                logger.exception("database error on shoe %s; restarting its reader", serial)
                _release_connection()
                run.stop.wait(DATABASE_RETRY_S)
            except Exception:
                # Nothing un-committed was ACKed: a new reader resynchronises from the store.
                run.reader_failures += 1
                logger.exception("reader of shoe %s failed; restarting it", serial)
                run.stop.wait(DATABASE_RETRY_S)
    finally:
        run.stop.set()
        if watcher is not None:
            watcher.join(timeout=1)
        _release_connection()
    return run


def _release_connection() -> None:
    """Drop this thread's connection, unless a caller's transaction still holds it."""
    if not connection.in_atomic_block:
        connection.close()


def _stop_when_idle(run: ShoeRun, idle_s: float) -> None:
    """No byte on the line for `idle_s` seconds ends the run (scripted runs end by themselves)."""
    last_bytes, quiet_since = -1, time.monotonic()
    while not run.stop.wait(0.05):
        received = run.counters.bytes_received + run.readers
        if received != last_bytes:
            last_bytes, quiet_since = received, time.monotonic()
        elif time.monotonic() - quiet_since >= idle_s:
            run.idle_exit = True
            run.stop.set()
