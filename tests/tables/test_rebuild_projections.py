"""A shift with shoe faults, then `rebuild_projections`: every projection comes back exactly as
the live appends wrote it (rounds, seats and stacks, alerts of every source, shoe incidents,
slips), on whichever database the tests run (SQLite by default, PostgreSQL with DATABASE_URL).
"""

from __future__ import annotations

import hashlib
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db.models import Model

from devices.codec.cards import DeckType, card_byte
from devices.codec.messages import CardDrawn, CardMisread, Fault, Hello, ShoeLoaded
from devices.django_sink import DjangoLinkSink
from devices.models import DeviceGap, DeviceIncident, MisreadHold
from devices.registry.enrollment import binding_approve, binding_request, device_enroll
from devices.registry.gaps import gap_resolve
from devices.registry.holds import misread_resolve
from reports.models import Slip
from tables import games
from tables.engine import siete
from tables.engine.stud.commands import Action, AwardPots
from tables.models import Alert, Round, Seat, Table
from tables.services import engine_state, seating
from tables.services.alerts import alert_acknowledge
from tables.services.commands import table_command
from tables.services.corrections import correction_approve, correction_request
from tables.services.floor import round_open, table_create
from tables.verification import verify_table
from tests.reports.conftest import floor
from tests.reports.custody_floor import Floor, close_books, open_books, slip_through

pytestmark = pytest.mark.django_db
__all__ = ["floor"]  # the custody tests' floor: one Siete y Medio table and its people
BOOT = 0x5EED
FIRMWARE = hashlib.sha256(b"simulated shoe firmware 1.0.0").digest()
PROJECTIONS: tuple[type[Model], ...] = (Round, Seat, Alert, DeviceIncident, Slip)


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


class Shoe:
    """The reader's sink, called as the link calls it, one seq after another."""

    def __init__(self, table: Table, serial: str, paula: User, pedro: User) -> None:
        device = device_enroll(serial=serial, port_url="loop://")
        binding = binding_request(device_id=device.pk, table_id=table.pk, by=paula)
        binding_approve(binding_id=binding.pk, by=pedro)
        self.sink = DjangoLinkSink(serial)
        self.sink.device_hello(Hello(serial, "SIM-SHOE", "1.0.0", FIRMWARE), BOOT)
        self.seq = 0

    def send(self, message: Any) -> str:
        self.seq += 1
        return self.sink.commit(BOOT, self.seq, message)

    def card(self, code: str, deck: DeckType) -> str:
        uid = hashlib.sha256(f"{code}{self.seq}".encode()).digest()[:7]
        return self.send(CardDrawn(self.seq + 1, card_byte(deck, code), 3, 0, uid))


def siete_shift(floor: Floor, pedro: User) -> None:
    """A round dealt by the shoe with a misread, a repeated frame, a gap, a fault, a wrong
    payout whose alert is acknowledged, a fill, and the closer."""
    table, dora, paula = floor.table, floor.dealer, floor.pit_boss
    open_books(table.pk, dealer=dora, pit_boss=paula, chips={"5": 100, "25": 40})
    slip_through(floor, "fill", {"25": 500})
    shoe = Shoe(table, "SIM-SYM-R", paula, pedro)
    assert shoe.send(ShoeLoaded(DeckType.SPANISH, 1, 99, 0)) == "accepted"

    def do(command: Any) -> None:
        table_command(table_id=table.pk, command=command, actor=dora, source="tablet")

    round_open(table_id=table.pk, actor=dora)
    do(siete.PlaceWager(1, 20))
    do(siete.PlaceWager(3, 10))
    assert shoe.card("7O", DeckType.SPANISH) == "accepted"
    assert shoe.send(CardMisread(shoe.seq + 1, 0x03, 0)) == "held"
    assert shoe.card("6B", DeckType.SPANISH) == "held"  # waits behind the unread card
    assert shoe.sink.commit(BOOT, shoe.seq, CardMisread(shoe.seq, 0x03, 0)) == "duplicate"
    misread_resolve(
        hold_id=MisreadHold.objects.get().pk, card="2C", requested_by=dora, approved_by=paula
    )
    shoe.sink.open_gap(BOOT, 40, 42)
    gap_resolve(gap_id=DeviceGap.objects.get().pk, by=paula, note="lost in a power cut")
    assert shoe.send(Fault(0x09, 2, True, 0)) == "accepted"
    shoe.sink.offline()
    shoe.sink.online()
    for command in (siete.Stand(1), siete.Stand(3), siete.RevealBank()):
        do(command)
    do(siete.RecordPayout(1, 40))  # the rules pay 20
    mismatch = Alert.objects.get(table=table, code="payout_mismatch")
    alert_acknowledge(alert_id=mismatch.pk, by=paula, note="seen")
    close_books(table.pk, dealer=dora, pit_boss=paula, chips={"5": 100, "25": 60})


def stud_shift(floor: Floor, pedro: User) -> Table:
    """Players buy in at their seats, one adds chips during the hand, the shoe reads a card
    twice (the hand is held until a four-eyes correction), and the hand ends on a fold."""
    dora, paula = floor.dealer, floor.pit_boss
    table = table_create(
        name="Stud-R", game="seven_card_stud", seat_count=8, settings={"small_bet": 20}
    )
    open_books(table.pk, dealer=dora, pit_boss=paula, chips={"5": 100})
    for seat, player in ((1, "ana"), (2, "bruno"), (3, "carla")):
        seating.player_seat(table_id=table.pk, seat=seat, player=player, buy_in=500, actor=dora)
    shoe = Shoe(table, "SIM-STUD-R", paula, pedro)
    round_open(table_id=table.pk, actor=dora)
    seating.chips_add(table_id=table.pk, seat=2, amount=100, actor=dora)  # plays from next hand
    for code in ("2c", "3c", "4d", "5d", "6h", "Kh"):
        assert shoe.card(code, DeckType.FRENCH) == "accepted"
    assert shoe.card("2c", DeckType.FRENCH) == "duplicate"  # read again: the hand is held
    asked = correction_request(
        table_id=table.pk,
        command_type="correct_held_card",
        command_data={"card": "9s"},
        reason="the shoe read the two of clubs twice",
        requested_by=paula,
    )
    correction_approve(correction_id=asked.pk, approver=pedro)
    for code in ("Qs", "Jd"):
        assert shoe.card(code, DeckType.FRENCH) == "accepted"
    view = games.binding_for(table.game).live_view
    for _ in range(3):  # the bring-in, then the others fold
        seen = view(engine_state.current_state(Table.objects.get(pk=table.pk)))
        if seen["to_act"] is None:
            break
        kinds = {option["action"] for option in seen["legal_actions"]}
        command = Action("bring_in" if "bring_in" in kinds else "fold", seen["to_act"])
        table_command(table_id=table.pk, command=command, actor=dora, source="tablet")
    table_command(table_id=table.pk, command=AwardPots(), actor=dora, source="tablet")
    assert Round.objects.get(table=table).status == Round.Status.SETTLED
    seating.player_leave(table_id=table.pk, seat=3, actor=dora)
    return table


def projections(tables: list[Table]) -> dict[str, list[dict[str, Any]]]:
    return {
        model.__name__: list(
            model._default_manager.filter(table__in=tables).order_by("pk").values()
        )
        for model in PROJECTIONS
    }


def spoil(tables: list[Table]) -> None:
    """Damage every projection, so only a rebuild from the log can put it right."""
    Round.objects.filter(table__in=tables).update(state={}, status=Round.Status.OPEN)
    Seat.objects.filter(table__in=tables).update(player_label="?", stack=1, pending_chips=7)
    Alert.objects.filter(table__in=tables).update(acknowledged_at=None, message="?")
    DeviceIncident.objects.filter(table__in=tables).update(message="?", alert=None)
    Slip.objects.filter(table__in=tables).update(stage=Slip.Stage.REQUESTED, voided=True)


def test_a_shift_with_shoe_faults_rebuilds_every_projection_identically(
    floor: Floor, pit_boss_pedro: User
) -> None:
    siete_shift(floor, pit_boss_pedro)
    stud = stud_shift(floor, pit_boss_pedro)
    tables = [floor.refresh(), stud]
    live = projections(tables)
    codes = {row["code"] for row in live["Alert"]}
    assert {"shoe_misread", "shoe_gap", "shoe_fault", "shoe_offline", "payout_mismatch"} <= codes
    assert {row["kind"] for row in live["DeviceIncident"]} >= {"misread", "gap", "online"}
    assert any(row["pending_chips"] or row["stack"] != 500 for row in live["Seat"])
    assert live["Slip"]
    assert all(verify_table(table).ok for table in tables)
    spoil(tables)
    out = StringIO()
    for table in tables:
        call_command("rebuild_projections", "--table", table.name, stdout=out)
    assert "rounds rebuilt" in out.getvalue()
    assert projections(tables) == live
