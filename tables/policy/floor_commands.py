"""Every command that is not a game's own: the floor, the review work, custody, devices,
reports and people. The games' commands are derived from their bindings (`game_commands`).

The matrix follows ARCHITECTURE 8: the pit boss opens and closes tables, assigns dealers,
approves; a dealer acts only at the table assigned to them; the cashier keeps the cage; the
auditor reads everything and writes nothing; the admin configures and manages people but
holds no operational role (and never approves his own change).
"""

from __future__ import annotations

from tables import roles
from tables.policy.rules import FLOOR_STAFF, PIT_BOSS_ONLY, Rule

D, P, C, A, ADM = roles.DEALER, roles.PIT_BOSS, roles.CASHIER, roles.AUDITOR, roles.ADMIN
EVERY_ROLE = frozenset(roles.ALL_ROLES)
HELD_OK = {"while_held": True}


def _write(name: str, summary: str, who: frozenset[str] | set[str], **flags: object) -> Rule:
    return Rule(name=name, summary=summary, roles=frozenset(who), **flags)  # type: ignore[arg-type]


def _read(name: str, summary: str, who: set[str]) -> Rule:
    return Rule(
        name=name, summary=summary, roles=frozenset(who), reads=True, while_held=True,
        own_table=False,
    )  # fmt: skip


FLOOR_RULES: tuple[Rule, ...] = (
    # Reads: the auditor reads everything.
    _read("me.read", "Who the caller is and which roles they hold", set(EVERY_ROLE)),
    _read("table.read", "The tables and their live state", {D, P, A, ADM}),
    _read("table.events", "A table's log", {A}),
    _read("round.audit", "A closed round's full record", {A}),
    _read("corrections.read", "Correction requests", {P, A}),
    _read("alerts.read", "Alerts for the pit", {P, A}),
    _read("custody.read", "A table's custody for a shift", {P, C, A}),
    _read("cage.read", "The cage's figures for a shift", {P, C, A}),
    _read("devices.read", "Shoes, their bindings and reports", {P, A, ADM}),
    _read("reports.read", "Stored reports (each role its kinds)", {P, C, A}),
    _read("roles.read", "Role grants and their requests", {A, ADM}),
    # The floor.
    _write("table.create", "Create a table with its house settings", PIT_BOSS_ONLY, **HELD_OK),
    _write("table.open", "Open a table", PIT_BOSS_ONLY),
    _write("table.close", "Close a table", PIT_BOSS_ONLY),
    _write("table.assign_dealer", "Assign a dealer to a table", PIT_BOSS_ONLY, **HELD_OK),
    # A game command by name: each command's own rule (below, per game) is then checked.
    _write("table.command", "Run a game command by name", FLOOR_STAFF, **HELD_OK),
    _write("round.open", "Open the next round", FLOOR_STAFF, at_table=True),
    _write("round.close", "Close the settled round", FLOOR_STAFF, at_table=True),
    _write("seat.sit", "Seat a player with a buy-in", FLOOR_STAFF, at_table=True, **HELD_OK),
    _write("seat.add_chips", "Add chips to a seated player", FLOOR_STAFF, at_table=True, **HELD_OK),
    _write("seat.leave", "A player leaves between hands", FLOOR_STAFF, at_table=True, **HELD_OK),
    # Four eyes: a request, then a different person's decision.
    _write(
        "correction.request",
        "Ask for a correction (a void, a payout, a held card, a "
        "settings change that needs a second pit boss)",
        FLOOR_STAFF,
        at_table=True,
        **HELD_OK,
    ),
    _write("correction.approve", "Approve a correction", PIT_BOSS_ONLY, **HELD_OK),
    _write("correction.refuse", "Refuse a correction", PIT_BOSS_ONLY, **HELD_OK),
    _write("alert.acknowledge", "Acknowledge an alert", PIT_BOSS_ONLY, **HELD_OK),
    # Custody: slips step by step, openers, closers, buy-ins, the count, the cage.
    _write("slip.request", "Request a fill or a credit", PIT_BOSS_ONLY, **HELD_OK),
    _write("slip.cage_sign", "Issue a fill / receive a credit at the cage", {C}, **HELD_OK),
    _write("slip.confirm", "Confirm a slip at the table", {D}, at_table=True, **HELD_OK),
    _write("slip.void_request", "Ask for a slip's void", PIT_BOSS_ONLY, **HELD_OK),
    _write("slip.void_approve", "Approve a slip's void", PIT_BOSS_ONLY, **HELD_OK),
    _write("custody.open", "Open the table for the shift with a chip count", PIT_BOSS_ONLY),
    _write("custody.close", "Close the table's shift with a chip count", PIT_BOSS_ONLY),
    _write(
        "custody.confirm",
        "The table's dealer confirms the opening or closing count with his login",
        {D},
        at_table=True,
        **HELD_OK,
    ),
    _write("custody.buy_in", "Record a buy-in", FLOOR_STAFF, at_table=True, **HELD_OK),
    _write("custody.drop", "Enter the counted drop", {C}, **HELD_OK),
    _write("cage.figures", "Enter the cage's figures for a shift", {C}, **HELD_OK),
    # Devices.
    _write("device.enroll", "Enrol a shoe", {P, ADM}, **HELD_OK),
    _write("device.bind", "Ask for a shoe's binding to a table", PIT_BOSS_ONLY, **HELD_OK),
    _write("device.bind_approve", "Approve a shoe's binding", PIT_BOSS_ONLY, **HELD_OK),
    _write("device.retire", "Retire a shoe", PIT_BOSS_ONLY, **HELD_OK),
    _write("device.reactivate", "Reactivate a quarantined shoe", PIT_BOSS_ONLY, **HELD_OK),
    _write("hold.enter", "Enter the card the shoe could not read", FLOOR_STAFF, **HELD_OK),
    _write("hold.approve", "Approve the entered card", PIT_BOSS_ONLY, **HELD_OK),
    _write("gap.resolve", "Write off events a shoe lost", PIT_BOSS_ONLY, **HELD_OK),
    # Reports and people.
    _write("report.run", "Start a report run (each role its kinds)", {P, C, A}, **HELD_OK),
    _write("role.grant_request", "Ask to grant or withdraw a role", {ADM}, **HELD_OK),
    _write("role.grant_approve", "Approve a role change", {ADM}, **HELD_OK),
    _write("role.grant_refuse", "Refuse a role change", {ADM}, **HELD_OK),
)

# Each decision step and the request it decides: the decider is a different person.
DECISIONS: dict[str, str] = {
    "correction.approve": "correction.request",
    "correction.refuse": "correction.request",
    "slip.void_approve": "slip.void_request",
    "device.bind_approve": "device.bind",
    "hold.approve": "hold.enter",
    "role.grant_approve": "role.grant_request",
    "role.grant_refuse": "role.grant_request",
}
