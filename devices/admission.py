"""May this shoe's events touch a round? Active, bound by a pit boss, and the identity it claims.

A shoe that fails any check still gets its events stored (quarantined) and ACKed, so nothing it
drew is lost; they are applied nowhere and the pit is alerted.
"""

from __future__ import annotations

from dataclasses import dataclass

from devices.codec.messages import Hello
from devices.models import Device, DeviceBinding


@dataclass(frozen=True)
class Admission:
    binding: DeviceBinding | None
    problem: str = ""  # empty: the events may be applied to the binding's table
    message: str = ""

    @property
    def table_id(self) -> int | None:
        return self.binding.table_id if self.binding is not None and not self.problem else None


def identity_of(hello: Hello) -> dict[str, str]:
    return {
        "model": hello.model,
        "firmware_version": hello.firmware_version,
        "firmware_hash": hello.firmware_hash.hex(),
    }


def identity_mismatch(device: Device, hello: Hello) -> list[str]:
    """The identity fields the registry holds that the HELLO contradicts."""
    claimed = identity_of(hello)
    return [name for name, value in claimed.items() if getattr(device, name) not in ("", value)]


def learn_identity(device: Device, hello: Hello) -> None:
    """A freshly bound shoe's first HELLO fills the identity; later HELLOs must match it."""
    blanks = {name: v for name, v in identity_of(hello).items() if not getattr(device, name)}
    if blanks:
        Device.objects.filter(pk=device.pk).update(**blanks)
        for name, value in blanks.items():
            setattr(device, name, value)


def fresh_device_and_binding(device_id: int) -> tuple[Device, DeviceBinding | None]:
    """The shoe as it stands now (a pit boss may have retired it mid-session), in one query
    when it is bound."""
    binding = (
        DeviceBinding.objects.select_related("device", "table")
        .filter(device_id=device_id, ended_at__isnull=True, approved_at__isnull=False)
        .first()
    )
    if binding is not None:
        return binding.device, binding
    return Device.objects.get(pk=device_id), None


def admit(
    device: Device, expected_serial: str, hello: Hello | None, binding: DeviceBinding | None
) -> Admission:
    """`binding` is the device's current binding (see `current_binding`)."""
    if device.serial != expected_serial:
        return Admission(
            binding,
            "not_this_port",
            f"Shoe {device.serial} spoke on the line of {expected_serial}; "
            "a shoe feeds only its own table.",
        )
    if device.status != Device.Status.ACTIVE:
        return Admission(binding, device.status, f"Shoe {device.serial} is {device.status}.")
    if binding is None:
        return Admission(None, "unbound", f"Shoe {device.serial} is not bound to a table.")
    mismatched = identity_mismatch(device, hello) if hello is not None else []
    if mismatched:
        return Admission(
            binding,
            "identity_mismatch",
            f"Shoe {device.serial} reports a different {', '.join(mismatched)} "
            "from the registered one.",
        )
    return Admission(binding)
