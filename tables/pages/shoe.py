"""The shoe's state as the tablet shows it: online, when it last read a card, its misreads.

Read-only and by app label, so the tables app does not import the devices app: a floor
without shoes shows "no shoe". The card codes themselves are never shown here (the last card
read may be face down).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.apps import apps
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Count, Max, Q


@dataclass(frozen=True)
class ShoeStatus:
    serial: str
    online: bool
    last_read_at: datetime | None
    misreads: int


def shoe_status(table_id: int) -> ShoeStatus | None:
    if not apps.is_installed("devices"):
        return None
    binding_model = apps.get_model("devices", "DeviceBinding")
    event_model = apps.get_model("devices", "DeviceEvent")
    binding = (
        binding_model.objects.filter(
            table_id=table_id, ended_at__isnull=True, approved_at__isnull=False
        )
        .select_related("device")
        .first()
    )
    if binding is None:
        return None
    try:
        device = binding.device
    except ObjectDoesNotExist:
        return None
    figures = event_model.objects.filter(device=device, table_id=table_id).aggregate(
        last_read_at=Max("received_at", filter=~Q(card="")),
        misreads=Count("id", filter=Q(message_type__icontains="misread")),
    )
    return ShoeStatus(
        serial=device.serial,
        online=bool(device.online),
        last_read_at=figures["last_read_at"],
        misreads=int(figures["misreads"] or 0),
    )
