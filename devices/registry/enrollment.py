"""Enrol a shoe, bind it to a table with a pit boss's approval, retire or quarantine it.

Every change to a binding is four-eyes: the pit boss who approves is not the person who asked.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from devices.models import Device, DeviceBinding
from tables import policy
from tables.engine.errors import InvalidInputError, NotAllowedNowError
from tables.models import Table
from tables.policy import four_eyes

SERIAL_MAX = 16


def current_binding(device: Device) -> DeviceBinding | None:
    """The approved, unended binding of a shoe: the one table it may feed."""
    return (
        DeviceBinding.objects.select_related("table")
        .filter(device=device, ended_at__isnull=True, approved_at__isnull=False)
        .first()
    )


def open_binding(device: Device) -> DeviceBinding | None:
    """The binding waiting for approval or in force, if any."""
    return DeviceBinding.objects.filter(device=device, ended_at__isnull=True).first()


def device_enroll(
    *,
    serial: str,
    port_url: str = "",
    key: str = "",
    by: User | None = None,
) -> Device:
    """Register a shoe as pending; its identity is learned from its first accepted HELLO."""
    policy.check(by, "device.enroll", source="system")
    serial = serial.strip()
    if not serial or len(serial) > SERIAL_MAX or not serial.isprintable():
        raise InvalidInputError(
            f"A serial number is 1 to {SERIAL_MAX} printable characters.", code="invalid_serial"
        )
    try:
        with transaction.atomic():
            return Device.objects.create(
                serial=serial,
                port_url=port_url.strip(),
                key=key,
                status=Device.Status.PENDING,
                enrolled_at=timezone.now(),
                enrolled_by=by,
            )
    except IntegrityError:
        raise NotAllowedNowError(
            f"A device with serial {serial} is already enrolled.", code="device_already_enrolled"
        ) from None


def binding_request(*, device_id: int, table_id: int, by: User | None) -> DeviceBinding:
    with transaction.atomic():
        device = _locked_device(device_id)
        if device.status == Device.Status.RETIRED:
            raise NotAllowedNowError("A retired device cannot be bound.", code="device_retired")
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            raise NotAllowedNowError("There is no such table.", code="table_not_found")
        policy.check(by, "device.bind", table, source="system")
        if open_binding(device) is not None:
            raise NotAllowedNowError(
                "This device already has a binding; end it first.", code="device_already_bound"
            )
        return DeviceBinding.objects.create(
            device=device, table_id=table_id, requested_by=by, requested_at=timezone.now()
        )


def binding_approve(*, binding_id: int, by: User) -> DeviceBinding:
    """A pit boss, not the requester, approves; a pending shoe becomes active."""
    with transaction.atomic():
        binding = _locked_binding(binding_id)
        if binding.ended_at is not None or binding.approved_at is not None:
            raise four_eyes.already_decided("binding")
        four_eyes.check_decider("device.bind_approve", requester=binding.requested_by, decider=by)
        binding.approved_by, binding.approved_at = by, timezone.now()
        try:
            with transaction.atomic():
                binding.save(update_fields=["approved_by", "approved_at"])
        except IntegrityError:
            raise NotAllowedNowError(
                "Another shoe is bound to this table; unbind it first.", code="table_has_a_shoe"
            ) from None
        device = binding.device
        if device.status == Device.Status.PENDING:
            device.status = Device.Status.ACTIVE
            device.save(update_fields=["status"])
        return binding


def binding_end(*, device_id: int, by: User | None, reason: str) -> DeviceBinding | None:
    with transaction.atomic():
        device = _locked_device(device_id)
        binding = open_binding(device)
        if binding is not None:
            _end(binding, by, reason)
        return binding


def device_retire(*, device_id: int, by: User, reason: str) -> Device:
    """A retired shoe never feeds a table again; its binding ends with it."""
    policy.check(by, "device.retire", source="system")
    with transaction.atomic():
        device = _locked_device(device_id)
        if device.status == Device.Status.RETIRED:
            raise NotAllowedNowError("The device is already retired.", code="device_retired")
        binding = open_binding(device)
        if binding is not None:
            _end(binding, by, reason or "retired")
        device.status = Device.Status.RETIRED
        device.save(update_fields=["status"])
        return device


def device_quarantine(*, device_id: int) -> Device:
    """Its events are kept but applied nowhere until a pit boss reactivates it."""
    with transaction.atomic():
        device = _locked_device(device_id)
        if device.status in (Device.Status.ACTIVE, Device.Status.PENDING):
            device.status = Device.Status.QUARANTINED
            device.save(update_fields=["status"])
        return device


def device_reactivate(*, device_id: int, by: User) -> Device:
    policy.check(by, "device.reactivate", source="system")
    with transaction.atomic():
        device = _locked_device(device_id)
        if device.status != Device.Status.QUARANTINED:
            raise NotAllowedNowError(
                "Only a quarantined device can be reactivated.", code="device_not_quarantined"
            )
        device.status = Device.Status.ACTIVE
        device.save(update_fields=["status"])
        return device


def _end(binding: DeviceBinding, by: User | None, reason: str) -> None:
    binding.ended_at, binding.ended_by, binding.end_reason = timezone.now(), by, reason[:200]
    binding.save(update_fields=["ended_at", "ended_by", "end_reason"])


def _locked_device(device_id: int) -> Device:
    try:
        return Device.objects.select_for_update().get(pk=device_id)
    except Device.DoesNotExist:
        raise NotAllowedNowError("There is no such device.", code="device_not_found") from None


def _locked_binding(binding_id: int) -> DeviceBinding:
    try:
        # Only the request row is locked: PostgreSQL locks no row across an outer join.
        return (
            DeviceBinding.objects.select_for_update(of=("self",))
            .select_related("device", "requested_by")
            .get(pk=binding_id)
        )
    except DeviceBinding.DoesNotExist:
        raise four_eyes.not_found("binding") from None


# What a binding's approval vouched for: a change to any of it needs a new approval.
CONFIGURATION_FIELDS = ("serial", "port_url", "model", "firmware_version", "firmware_hash", "key")


def device_configure(
    *, device: Device, by: User | None, changed: list[str]
) -> DeviceBinding | None:
    """Save a shoe's edited configuration. If it changed anything an approval vouched for while
    the shoe is bound, the binding ends and a new one is asked for at the same table, so the
    shoe feeds nothing until a pit boss (not ``by``) approves it again. Returns that request."""
    reconfigured = [name for name in changed if name in CONFIGURATION_FIELDS]
    with transaction.atomic():
        _locked_device(device.pk)
        device.save()
        binding = current_binding(device) if reconfigured else None
        if binding is None:
            return None
        _end(binding, by, f"reconfigured: {', '.join(reconfigured)}")
        return DeviceBinding.objects.create(
            device=device, table_id=binding.table_id, requested_by=by, requested_at=timezone.now()
        )
