"""The product's LinkSink: the link's events committed to the database, then ACKed.

One reader process serves one registered shoe (`expected_serial`) on one port. Each event is
stored under (device, boot_id, seq) and, when the shoe is admitted, its card is applied to the
bound table through `table_command(..., source="shoe")` in the same transaction: `commit`
returns only after that transaction commits, so the link ACKs only what is durable.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, TypeVar

from django.db import DatabaseError, IntegrityError, close_old_connections, transaction
from django.utils import timezone

from devices import admission, applying, feeding
from devices.codec.frames import seq_is_after
from devices.codec.message_types import Message
from devices.codec.messages import Heartbeat, Hello
from devices.link.sink import DeviceVerdict, LinkCounters
from devices.models import Device, DeviceEvent, DeviceGap
from devices.registry import holds, link_quality
from devices.registry.alerts import raise_device_alert
from devices.registry.enrollment import current_binding, device_quarantine
from tables.services.commands import lock_table

T = TypeVar("T")
logger = logging.getLogger(__name__)
Verdict = DeviceEvent.Verdict
HEARTBEAT_WRITE_EVERY = timedelta(seconds=5)
STATUS_BITS = {
    Heartbeat.STATUS_LID_OPEN: ("lid_open", "The shoe's lid is open."),
    Heartbeat.STATUS_TAMPER: ("tamper", "The shoe reports tampering."),
    Heartbeat.STATUS_SENSOR_FAULT: ("sensor_fault", "The shoe's card sensor reports a fault."),
}
DB_ATTEMPTS = 5
RECENT_EVENTS = 64


class DjangoLinkSink:
    def __init__(
        self,
        expected_serial: str,
        *,
        clock: Callable[[], datetime] = timezone.now,
        heartbeat_write_every: timedelta = HEARTBEAT_WRITE_EVERY,
    ) -> None:
        self.expected_serial = expected_serial
        self._heartbeat_write_every = heartbeat_write_every
        self._clock = clock
        self._device: Device | None = None
        self._hello: Hello | None = None
        self._alerted: set[tuple[str, str]] = set()
        self._status_bits = 0
        self._last_heartbeat_write: datetime | None = None
        self._was_offline = False
        # Only this reader opens holds at its table (one shoe per table): while it knows of none,
        # it need not look for one on every card.
        self._hold_may_be_open = True
        self._quality = link_quality.Accumulator(expected_serial)

    # Session.

    def device_hello(self, hello: Hello, boot_id: int) -> DeviceVerdict:
        def admit() -> tuple[Device, admission.Admission]:
            device = Device.objects.filter(serial=hello.serial).first()
            if device is None:
                device = _quarantine_unknown(hello, self._clock())
            elif device.status == Device.Status.ACTIVE and current_binding(device) is not None:
                admission.learn_identity(device, hello)
            binding = current_binding(device)
            return device, admission.admit(device, self.expected_serial, hello, binding)

        device, admitted = self._retrying(admit)
        self._device, self._hello = device, hello
        if admitted.problem:
            self._alert_once(device, admitted.problem, "quarantined", admitted.message)
        # Accepted either way: the link checks the key; a shoe not admitted is stored, not applied.
        return DeviceVerdict(True, device.key_bytes)

    def session_refused(self, hello: Hello, reason: str) -> None:
        device = Device.objects.filter(serial=hello.serial).first()
        if device is None:
            return
        if "no answer" not in reason:
            # A wrong key or challenge: the shoe is not who it says; a pit boss must look.
            device_id = device.pk
            device = self._retrying(lambda: device_quarantine(device_id=device_id))
        self._alert_once(device, f"refused:{reason}", "session_refused", reason)

    def last_committed_seq(self, boot_id: int) -> int:
        device = self._device
        if device is None:
            return 0
        return self._retrying(lambda: _last_seq(device, boot_id))

    def already_committed(self, boot_id: int, seq: int) -> bool:
        device = self._device
        if device is None:
            return False
        query = DeviceEvent.objects.filter(device=device, boot_id=boot_id, seq=seq)
        return self._retrying(query.exists)

    def commit(self, boot_id: int, seq: int, message: Message) -> str:
        device = self._device
        if device is None:
            raise RuntimeError("commit before a session was admitted")
        try:
            return self._retrying(lambda: self._commit(device, boot_id, seq, message))
        except IntegrityError:
            # Already stored under (device, boot_id, seq) by an earlier run: not applied again.
            return Verdict.DUPLICATE

    # Commit.

    def _commit(self, device: Device, boot_id: int, seq: int, message: Message) -> str:
        with transaction.atomic():
            device, binding = admission.fresh_device_and_binding(device.pk)
            admitted = admission.admit(device, self.expected_serial, self._hello, binding)
            table = lock_table(admitted.table_id) if admitted.table_id is not None else None
            game = table.game if table is not None else self._port_game()
            reading = feeding.read_message(message, feeding.deck_for(game or ""))
            if table is None:
                applied = applying.Applied(Verdict.QUARANTINED, admitted.problem)
            else:
                applied = _apply_safely(table, reading, self._hold_may_be_open)
                self._hold_may_be_open = applied.hold_open
            event = DeviceEvent.objects.create(
                device=device,
                boot_id=boot_id,
                seq=seq,
                message_type=reading.message_type,
                payload=reading.payload,
                draw_index=reading.draw_index,
                card=reading.card or "",
                physical_id=reading.physical_id or "",
                verdict=applied.verdict,
                reason=applied.reason,
                table=table,
                table_event=applied.table_event,
                received_at=self._clock(),
            )
            if table is not None:
                _follow_up(event, table, applied)
        if table is None:
            self._alert_once(device, admitted.problem, "quarantined", admitted.message)
        return str(applied.verdict)

    # Liveness and line.

    def heartbeat(self, boot_id: int, heartbeat: Heartbeat) -> None:
        device = self._device
        if device is None:
            return
        now = self._clock()
        due = self._last_heartbeat_write is None
        if not due and self._last_heartbeat_write is not None:
            due = now - self._last_heartbeat_write >= self._heartbeat_write_every
        if due:
            self._last_heartbeat_write = now
            query = Device.objects.filter(pk=device.pk)
            self._retrying(lambda: query.update(last_heard_at=now, online=True))
        raised = heartbeat.status & ~self._status_bits
        self._status_bits = heartbeat.status
        for bit, (kind, message) in STATUS_BITS.items():
            if raised & bit:
                self._incident(device, kind, message, {"status": heartbeat.status})

    def open_gap(self, boot_id: int, first_missing: int, last_missing: int) -> None:
        device = self._device
        if device is None:
            return
        gap = {"boot_id": boot_id, "first_missing": first_missing, "last_missing": last_missing}
        self._retrying(
            lambda: DeviceGap.objects.create(device=device, opened_at=self._clock(), **gap)
        )
        message = (
            f"Shoe {device.serial} lost events {first_missing}…{last_missing}: "
            "rounds wait until a pit boss resolves the gap."
        )
        self._incident(device, "gap", message, gap)

    def offline(self) -> None:
        device = self._device or Device.objects.filter(serial=self.expected_serial).first()
        if device is None:
            return
        self._was_offline = True
        self._retrying(lambda: Device.objects.filter(pk=device.pk).update(online=False))
        message = f"Shoe {device.serial} missed three heartbeats and is offline."
        self._incident(device, "offline", message, {})

    def online(self) -> None:
        device = self._device
        if device is None:
            return
        now = self._clock()
        query = Device.objects.filter(pk=device.pk)
        self._retrying(lambda: query.update(online=True, last_heard_at=now))
        if self._was_offline:
            self._was_offline = False
            message = f"Shoe {device.serial} is heard from again."
            self._incident(device, "online", message, {}, alert=False)

    def link_counters(self, counters: LinkCounters) -> None:
        self._retrying(lambda: self._quality.store(counters, self._clock()))

    # Helpers.

    def _port_game(self) -> str | None:
        expected = Device.objects.filter(serial=self.expected_serial).first()
        binding = current_binding(expected) if expected is not None else None
        return binding.table.game if binding is not None else None

    def _alert_table_id(self, device: Device) -> int | None:
        """The table the pit should hear it at: the shoe's own, else the port's."""
        for candidate in (device, Device.objects.filter(serial=self.expected_serial).first()):
            binding = current_binding(candidate) if candidate is not None else None
            if binding is not None:
                return binding.table_id
        return None

    def _alert_once(self, device: Device, key: str, kind: str, message: str) -> None:
        if not key or (device.serial, key) in self._alerted:
            return
        self._alerted.add((device.serial, key))
        self._incident(device, kind, message, {"problem": key})

    def _incident(
        self,
        device: Device,
        kind: str,
        message: str,
        details: dict[str, Any],
        *,
        alert: bool = True,
    ) -> None:
        def write() -> None:
            raise_device_alert(
                device=device,
                table_id=self._alert_table_id(device),
                kind=kind,
                message=message,
                details=details,
                alert=alert,
            )

        self._retrying(write)

    def _retrying(self, work: Callable[[], T]) -> T:
        """A lost connection or a busy database is retried; the link waits (and does not ACK)."""
        for attempt in range(1, DB_ATTEMPTS + 1):
            try:
                return work()
            except IntegrityError:
                raise
            except DatabaseError:
                if attempt == DB_ATTEMPTS:
                    raise
                close_old_connections()
                time.sleep(0.1 * attempt)
        raise AssertionError("unreachable")


def _apply_safely(table: Any, reading: feeding.Reading, hold_may_be_open: bool) -> applying.Applied:
    """A fault of ours is stored with the event and alerted, never lost.

    The daemon must outlive any one event: a card it cannot apply is kept (verdict `rejected`,
    reason `internal_error`) and ACKed, so the line goes on and the pit decides. Writes happen
    only inside `table_command`, whose own savepoint undoes them when it fails.
    """
    try:
        return applying.apply_reading(table, reading, hold_may_be_open)
    except DatabaseError:
        raise
    except Exception as error:
        logger.exception("shoe event could not be applied at table %s", table.pk)
        message = f"A shoe event could not be applied ({type(error).__name__}); check the round."
        return applying.Applied(
            Verdict.REJECTED,
            "internal_error",
            alert=("card_refused", message, {"refusal": "internal_error"}),
        )


def _follow_up(event: DeviceEvent, table: Any, applied: applying.Applied) -> None:
    """Inside the commit's transaction: the pit's alert and, for an unread card, the hold."""
    if applied.alert is not None:
        kind, message, details = applied.alert
        raise_device_alert(
            device=event.device,
            table=table,
            kind=kind,
            message=message,
            details={**details, "device_event": event.pk},
        )
    if applied.opens_hold:
        holds.open_hold(event, table)


def _quarantine_unknown(hello: Hello, now: datetime) -> Device:
    """An unknown shoe on the line is registered as quarantined, so what it sends is kept."""
    identity = admission.identity_of(hello)
    device, _ = Device.objects.get_or_create(
        serial=hello.serial,
        defaults={**identity, "status": Device.Status.QUARANTINED, "enrolled_at": now},
    )
    return device


def _last_seq(device: Device, boot_id: int) -> int:
    """The seq committed last for this boot, or past it where a pit boss resolved a gap."""
    events = DeviceEvent.objects.filter(device=device, boot_id=boot_id).order_by("-id")
    # The newest rows, not only the last one: an event behind a resolved gap is stored late.
    last = 0
    for seq in events.values_list("seq", flat=True)[:RECENT_EVENTS]:
        if last == 0 or seq_is_after(seq, last):
            last = seq
    resolved = DeviceGap.objects.filter(device=device, boot_id=boot_id, resolved_at__isnull=False)
    for gap_end in resolved.values_list("last_missing", flat=True):
        if seq_is_after(gap_end, last):
            last = gap_end
    return last
