"""manage.py device_report: a shoe's status, binding, link quality and the cards it dealt."""

from __future__ import annotations

import argparse
import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.core.serializers.json import DjangoJSONEncoder

from devices.models import Device
from devices.reporting import device_report


class Command(BaseCommand):
    help = "Print a shoe's status, binding, link-quality counters and accepted cards in order."

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--device", required=True, help="the shoe's serial number")
        parser.add_argument("--json", action="store_true", help="machine-readable output")

    def handle(self, *args: Any, **options: Any) -> None:
        device = Device.objects.filter(serial=options["device"]).first()
        if device is None:
            raise CommandError(f"No device with serial {options['device']} is enrolled.")
        report = device_report(device)
        if options["json"]:
            self.stdout.write(json.dumps(report, cls=DjangoJSONEncoder, indent=2, sort_keys=True))
            return
        self._print(report)

    def _print(self, report: dict[str, Any]) -> None:
        device, binding = report["device"], report["device"]["binding"]
        write = self.stdout.write
        write(f"Shoe {device['serial']}: {device['status']}, {_online(device)}")
        write(f"  model {device['model'] or '?'}, firmware {device['firmware_version'] or '?'}")
        write(f"  port {device['port_url'] or '(none)'}")
        if binding is None:
            write("  not bound to a table")
        else:
            write(
                f"  bound to {binding['table']} ({binding['state']}; asked by "
                f"{binding['requested_by'] or 'the command line'}, approved by "
                f"{binding['approved_by'] or 'nobody yet'})"
            )
        quality = report["link_quality"]
        write("Link quality:")
        for name, value in quality.items():
            write(f"  {name}: {value}")
        write(f"Events by verdict: {report['events_by_verdict']}")
        for gap in report["open_gaps"]:
            missing = f"{gap['first_missing']}…{gap['last_missing']}"
            write(f"Open gap: boot {gap['boot_id']:08x} seq {missing}")
        for hold in report["open_holds"]:
            write(f"Open misread hold at {hold['table']}: draw {hold['draw_index']}")
        write(f"Accepted cards ({len(report['cards'])}):")
        write("  draw  card  boot_id   seq    time   (## = face down, its round still live)")
        for card in report["cards"]:
            write(
                f"  {card['draw_index']:>4}  {card['card'] or '##':<4}  {card['boot_id']:08x}  "
                f"{card['seq']:>5}  {card['time'].isoformat()}"
                + ("  (entered)" if card["entered"] else "")
            )


def _online(device: dict[str, Any]) -> str:
    heard = device["last_heard_at"]
    state = "online" if device["online"] else "offline"
    return f"{state} (last heard {heard.isoformat() if heard else 'never'})"
