"""Sets up and reads the browser tier's floor, run as its own process on the server's database.

The test process never opens the server's database itself: it asks this script, which prints
JSON. `python tests/browser/floor_script.py table siete_y_medio SyM-B1`, `... shoe 3 SIM-B1`,
`... events 3`.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

import django

django.setup()

from django.contrib.auth.models import Group, User  # noqa: E402

from tables import roles  # noqa: E402
from tables.models import Alert, TableEvent  # noqa: E402
from tables.services.custody import count_confirm, custody_open  # noqa: E402
from tables.services.floor import dealer_assign, table_create  # noqa: E402
from tables.services.seating import player_seat  # noqa: E402
from tests.browser.tablet_driver import TABLE_SETTINGS  # noqa: E402

SEATS = {"siete_y_medio": 6, "seven_card_stud": 8}
STUD_PLAYERS = (("ana", 500), ("bruno", 400), ("carla", 300), ("dario", 600))


def person(username: str, role: str) -> User:
    user, created = User.objects.get_or_create(username=username)
    if created:
        user.set_password(f"{username}-pw")
        user.save()
        user.groups.set([Group.objects.get(name=role)])
    return user


def make_table(game: str, name: str) -> dict[str, Any]:
    boss = person("boss-b", roles.PIT_BOSS)
    dealer = person(f"dealer-{name.lower()}", roles.DEALER)
    table = table_create(
        name=name, game=game, seat_count=SEATS[game], settings=TABLE_SETTINGS[game], actor=boss
    )
    dealer_assign(table_id=table.pk, dealer=dealer, by=boss)
    # Opened as on the floor: the pit boss counts the tray, the dealer confirms the count (a
    # seat's buy-in is a custody buy-in, which needs the opener).
    custody_open(table_id=table.pk, pit_boss=boss, chips={"5": 100, "25": 40})
    count_confirm(table_id=table.pk, dealer=dealer, closing=False)
    if game == "seven_card_stud":
        for seat, (player, chips) in enumerate(STUD_PLAYERS, start=1):
            player_seat(table_id=table.pk, seat=seat, player=player, buy_in=chips, actor=boss)
    return {"table": table.pk, "username": dealer.username, "password": f"{dealer.username}-pw"}


def bind_shoe(table_id: int, serial: str) -> dict[str, Any]:
    from devices.registry.enrollment import binding_approve, binding_request, device_enroll

    requester = person("boss-b", roles.PIT_BOSS)
    approver = person("boss-c", roles.PIT_BOSS)
    device = device_enroll(serial=serial, by=requester)
    binding = binding_request(device_id=device.pk, table_id=table_id, by=requester)
    binding_approve(binding_id=binding.pk, by=approver)
    return {"device": device.pk, "serial": serial}


def events(table_id: int) -> list[dict[str, Any]]:
    rows = TableEvent.objects.filter(table_id=table_id).order_by("seq")
    return [
        {
            "seq": row.seq,
            "type": row.type,
            "key": row.idempotency_key,
            "source": row.source,
            "payload": row.payload,
            "occurred_at": row.occurred_at.isoformat(),
            "recorded_at": row.recorded_at.isoformat(),
        }
        for row in rows
    ]


def alerts(table_id: int) -> list[str]:
    return list(Alert.objects.filter(table_id=table_id).values_list("code", flat=True))


def main(argv: list[str]) -> Any:
    command, *args = argv
    if command == "table":
        return make_table(args[0], args[1])
    if command == "shoe":
        return bind_shoe(int(args[0]), args[1])
    if command == "events":
        return events(int(args[0]))
    if command == "alerts":
        return alerts(int(args[0]))
    raise SystemExit(f"unknown command {command!r}")


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:])))
