"""A small floor for the policy tests: one table of each game, a dealer at each, the seven
callers of the role matrix, a fill slip waiting at the Siete table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tables import roles
from tables.models import Table
from tables.services import custody
from tables.services.custody import slips
from tables.services.floor import dealer_assign, table_create, table_set_status
from tests.conftest import make_user

ANONYMOUS = "anonymous"
ASSIGNED_DEALER = "assigned dealer"
OTHER_DEALER = "other dealer"
PERSONAS = (
    ANONYMOUS, ASSIGNED_DEALER, OTHER_DEALER, "pit boss", "cashier", "auditor", "admin",
)  # fmt: skip
ROLE_OF = {
    ASSIGNED_DEALER: roles.DEALER,
    OTHER_DEALER: roles.DEALER,
    "pit boss": roles.PIT_BOSS,
    "cashier": roles.CASHIER,
    "auditor": roles.AUDITOR,
    "admin": roles.ADMIN,
}


@dataclass
class PolicyFloor:
    siete: Table
    stud: Table
    people: dict[str, User]
    second_pit_boss: User
    fill_number: int

    def client(self, persona: str) -> APIClient:
        client = APIClient()
        if persona != ANONYMOUS:
            client.force_authenticate(self.people[persona])
        return client

    def table_for(self, game: str | None) -> Table:
        return self.stud if game == self.stud.game else self.siete


def build_floor() -> PolicyFloor:
    people = {
        persona: make_user(persona.replace(" ", "_"), role) for persona, role in ROLE_OF.items()
    }
    boss = people["pit boss"]
    siete = _open("SyM-P", "siete_y_medio", {"min_stake": 10, "max_stake": 500, "chip": 5}, boss)
    stud = _open("Stud-P", "seven_card_stud", {"small_bet": 20}, boss)
    dealer_assign(table_id=siete.pk, dealer=people[ASSIGNED_DEALER], by=boss)
    dealer_assign(table_id=stud.pk, dealer=people[OTHER_DEALER], by=boss)
    custody.custody_open(table_id=siete.pk, pit_boss=boss, chips={"25": 4000})
    custody.count_confirm(table_id=siete.pk, dealer=people[ASSIGNED_DEALER], closing=False)
    # The Stud table opens with a count too: its seats' buy-ins are custody buy-ins.
    custody.custody_open(table_id=stud.pk, pit_boss=boss, chips={"25": 40})
    custody.count_confirm(table_id=stud.pk, dealer=people[OTHER_DEALER], closing=False)
    event = slips.slip_request(
        slip_type="fill", table_id=siete.pk, amounts={"25": 500}, pit_boss=boss
    )
    slips.slip_cage_sign(
        slip_type="fill", slip_number=event.payload["slip_number"], cashier=people["cashier"]
    )
    return PolicyFloor(
        siete=siete,
        stud=stud,
        people=people,
        second_pit_boss=make_user("second_pit_boss", roles.PIT_BOSS),
        fill_number=event.payload["slip_number"],
    )


def _open(name: str, game: str, settings: dict[str, Any], boss: User) -> Table:
    table = table_create(name=name, game=game, seat_count=6, settings=settings, actor=boss)
    table_set_status(table_id=table.pk, status=Table.Status.OPEN, actor=boss)
    table.refresh_from_db()
    return table
