"""Read-only views of the registry for the operator's report and the API."""

from __future__ import annotations

from typing import Any

from devices.models import Device, DeviceBinding, DeviceEvent, DeviceGap, LinkQuality, MisreadHold
from devices.registry.enrollment import open_binding
from devices.registry.link_quality import COUNTER_FIELDS
from tables.disclosure import NOTHING_HIDDEN, Disclosure, RoundSecrets

RECENT_INCIDENTS = 20


def binding_summary(binding: DeviceBinding | None) -> dict[str, Any] | None:
    if binding is None:
        return None
    return {
        "id": binding.pk,
        "table": binding.table.name,
        "table_id": binding.table_id,
        "state": "approved" if binding.approved_at else "pending",
        "requested_by": binding.requested_by.get_username() if binding.requested_by else None,
        "requested_at": binding.requested_at,
        "approved_by": binding.approved_by.get_username() if binding.approved_by else None,
        "approved_at": binding.approved_at,
    }


def device_summary(device: Device) -> dict[str, Any]:
    return {
        "id": device.pk,
        "serial": device.serial,
        "model": device.model,
        "firmware_version": device.firmware_version,
        "firmware_hash": device.firmware_hash,
        "keyed": device.keyed,
        "status": device.status,
        "port_url": device.port_url,
        "online": device.online,
        "last_heard_at": device.last_heard_at,
        "binding": binding_summary(open_binding(device)),
    }


def link_quality_of(device: Device) -> dict[str, Any]:
    quality = LinkQuality.objects.filter(device=device).first()
    if quality is None:
        quality = LinkQuality(device=device)
    figures: dict[str, Any] = {name: getattr(quality, name) for name in COUNTER_FIELDS}
    figures["rejections"] = dict(quality.rejections)
    figures["updated_at"] = quality.updated_at
    return figures


def accepted_cards(device: Device) -> list[dict[str, Any]]:
    """The cards the shoe dealt that reached a table, in the order they were committed. A card
    still face down in a live round is listed by its draw with ``card`` None (tables.disclosure)."""
    events = (
        DeviceEvent.objects.filter(
            device=device, verdict=DeviceEvent.Verdict.ACCEPTED, draw_index__isnull=False
        )
        .exclude(card="")
        .select_related("table_event__round")
    )
    disclosure = Disclosure()
    return [
        {
            "draw_index": event.draw_index,
            "card": _secrets_of_read(disclosure, event).card(event.card),
            "boot_id": event.boot_id,
            "seq": event.seq,
            "time": event.received_at,
            "entered": event.reason == "entered",
        }
        for event in events.order_by("id")
    ]


def _secrets_of_read(disclosure: Disclosure, event: DeviceEvent) -> RoundSecrets:
    if event.table_event is not None:
        return disclosure.of(event.table_event.round)
    # A read the log does not tie to a round: hidden while any round at its table is live.
    return disclosure.of_live_rounds(event.table_id) if event.table_id else NOTHING_HIDDEN


def device_report(device: Device) -> dict[str, Any]:
    verdicts: dict[str, int] = {}
    for verdict in DeviceEvent.objects.filter(device=device).values_list("verdict", flat=True):
        verdicts[verdict] = verdicts.get(verdict, 0) + 1
    gaps = DeviceGap.objects.filter(device=device, resolved_at__isnull=True)
    holds = MisreadHold.objects.filter(device=device, resolved_at__isnull=True)
    return {
        "device": device_summary(device),
        "link_quality": link_quality_of(device),
        "events_by_verdict": verdicts,
        "open_gaps": [
            {"boot_id": g.boot_id, "first_missing": g.first_missing, "last_missing": g.last_missing}
            for g in gaps
        ],
        "open_holds": [
            {"id": h.pk, "table": h.table.name, "draw_index": h.device_event.draw_index}
            for h in holds.select_related("table", "device_event")
        ],
        "incidents": _incidents(device),
        "cards": accepted_cards(device),
    }


def _incidents(device: Device) -> list[dict[str, Any]]:
    """Recent incidents; a message never names a card still face down at the shoe's table."""
    disclosure = Disclosure()
    rows = []
    for incident in device.incidents.all()[:RECENT_INCIDENTS]:
        secrets = disclosure.of_live_rounds(incident.table_id) if incident.table_id else None
        message = secrets.text(incident.message) if secrets else incident.message
        rows.append({"kind": incident.kind, "message": message, "at": incident.occurred_at})
    return rows
