"""One simulated shoe per demo table, enrolled and bound: serial `SIM-<table name>`.

Ports are placeholders on 127.0.0.1 (one TCP port per table, from 7701): start a simulator
there, or pass `run_shoe --port` with any other line.
"""

from __future__ import annotations

from django.contrib.auth.models import User

from devices.models import Device
from devices.registry.enrollment import (
    binding_approve,
    binding_request,
    current_binding,
    device_enroll,
    open_binding,
)
from tables.models import Table

FIRST_DEMO_PORT = 7701
DEMO_TABLE_NAMES = ("SyM-1", "SyM-2", "Stud-1", "Stud-2")
REQUESTER, APPROVER = "pitboss1", "pitboss2"


def demo_serial(table: Table) -> str:
    return f"SIM-{table.name}"[:16]


def ensure_demo_shoes() -> list[Device]:
    """Enrol and bind what is missing; running it twice changes nothing."""
    requester = User.objects.get(username=REQUESTER)
    approver = User.objects.get(username=APPROVER)
    shoes = []
    tables = Table.objects.filter(name__in=DEMO_TABLE_NAMES).order_by("pk")
    for offset, table in enumerate(tables):
        device = Device.objects.filter(serial=demo_serial(table)).first()
        if device is None:
            port = f"socket://127.0.0.1:{FIRST_DEMO_PORT + offset}"
            device = device_enroll(serial=demo_serial(table), port_url=port, by=requester)
        if open_binding(device) is None:
            binding_request(device_id=device.pk, table_id=table.pk, by=requester)
        pending = open_binding(device)
        if pending is not None and current_binding(device) is None:
            binding_approve(binding_id=pending.pk, by=approver)
        device.refresh_from_db()
        shoes.append(device)
    return shoes
