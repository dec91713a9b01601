"""The database sink, called the way the link calls it: admission, cards into the games,
misread holds with four-eyes entry, refusals stored and alerted, duplicates never re-applied."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from django.contrib.auth.models import User
from shoe_floor_harness import fast_password_hashing

from devices.codec.cards import DeckType, card_byte
from devices.codec.messages import CardDrawn, CardMisread, Fault, Hello, ShoeLoaded, Tamper
from devices.django_sink import DjangoLinkSink
from devices.models import Device, DeviceEvent, DeviceGap, DeviceIncident, MisreadHold
from devices.registry.enrollment import (
    binding_approve,
    binding_request,
    device_enroll,
    device_retire,
)
from devices.registry.gaps import gap_resolve
from devices.registry.holds import misread_resolve
from tables.engine import siete
from tables.engine.errors import NotAllowedNowError, RuleError
from tables.engine.stud.commands import Action, SeatEntry, StartHand
from tables.models import Alert, Table, TableEvent
from tables.services.commands import table_command
from tables.services.floor import dealer_assign, table_create, table_set_status
from tables.verification import verify_table

pytestmark = pytest.mark.django_db
__all__ = ["fast_password_hashing"]
BOOT = 0x1234ABCD
FIRMWARE_HASH = hashlib.sha256(b"simulated shoe firmware 1.0.0").digest()


def hello(serial: str, firmware_version: str = "1.0.0") -> Hello:
    return Hello(serial, "SIM-SHOE", firmware_version, FIRMWARE_HASH)


def open_table(name: str, game: str, settings: dict[str, Any], by: User) -> Table:
    table = table_create(name=name, game=game, seat_count=6, settings=settings)
    table_set_status(table_id=table.pk, status=Table.Status.OPEN, actor=by)
    table.refresh_from_db()
    return table


def bound(table: Table, serial: str, requester: User, approver: User) -> Device:
    device = device_enroll(serial=serial, port_url="loop://")
    binding = binding_request(device_id=device.pk, table_id=table.pk, by=requester)
    binding_approve(binding_id=binding.pk, by=approver)
    device.refresh_from_db()
    return device


class Line:
    """Calls the sink as the link does, one seq after another."""

    def __init__(self, serial: str, table_serial: str | None = None) -> None:
        self.sink = DjangoLinkSink(table_serial or serial)
        self.verdict = self.sink.device_hello(hello(serial), BOOT)
        self.seq = 0

    def send(self, message: Any) -> str:
        self.seq += 1
        return self.sink.commit(BOOT, self.seq, message)

    def card(self, code: str, deck: DeckType = DeckType.SPANISH, uid: bytes = b"") -> str:
        uid = uid or hashlib.sha256(f"{code}{self.seq}".encode()).digest()[:7]
        return self.send(CardDrawn(self.seq + 1, card_byte(deck, code), 3, 0, uid))


@pytest.fixture
def siete_table(pit_boss_paula: User) -> Table:
    return open_table(
        "SYM-02", "siete_y_medio", {"min_stake": 10, "max_stake": 200}, pit_boss_paula
    )


@pytest.fixture
def siete_shoe(siete_table: Table, pit_boss_paula: User, pit_boss_pedro: User) -> Device:
    return bound(siete_table, "SIM-SYM-02", pit_boss_paula, pit_boss_pedro)


def start_siete_round(table: Table, dealer: User, boxes: dict[int, int]) -> None:
    dealer_assign(table_id=table.pk, dealer=dealer, by=None)
    table_command(table_id=table.pk, command=siete.StartRound(), actor=dealer, source="tablet")
    for box, amount in boxes.items():
        command = siete.PlaceWager(box=box, amount=amount)
        table_command(table_id=table.pk, command=command, actor=dealer, source="tablet")


def dealt_cards(table: Table) -> list[tuple[str, Any, str]]:
    rows = TableEvent.objects.filter(table=table, type="card.dealt").order_by("seq")
    return [(row.payload["card"], row.payload.get("box"), row.source) for row in rows]


def test_cards_from_an_admitted_shoe_go_to_the_boxes_then_the_bank(
    siete_table: Table, siete_shoe: Device, dealer_dora: User
) -> None:
    line = Line("SIM-SYM-02")
    assert line.verdict.accepted
    assert line.send(ShoeLoaded(DeckType.SPANISH, 1, 99, 0)) == "accepted"
    start_siete_round(siete_table, dealer_dora, {1: 20, 3: 10})
    for code in ("7O", "5C", "3E"):
        assert line.card(code) == "accepted"
    assert dealt_cards(siete_table) == [("7O", 1, "shoe"), ("5C", 3, "shoe"), ("3E", None, "shoe")]
    assert sorted(DeviceEvent.objects.values_list("seq", flat=True)) == [1, 2, 3, 4]
    assert line.sink.last_committed_seq(BOOT) == 4
    assert line.sink.already_committed(BOOT, 2)
    assert not line.sink.already_committed(BOOT, 5)
    assert verify_table(siete_table).ok


def test_the_same_seq_committed_twice_is_stored_once_and_applied_once(
    siete_table: Table, siete_shoe: Device, dealer_dora: User
) -> None:
    start_siete_round(siete_table, dealer_dora, {1: 20})
    line = Line("SIM-SYM-02")
    message = CardDrawn(1, card_byte(DeckType.SPANISH, "4B"), 3, 0, b"\x01\x02")
    assert line.sink.commit(BOOT, 1, message) == "accepted"
    assert line.sink.commit(BOOT, 1, message) == "duplicate"
    assert DeviceEvent.objects.count() == 1
    assert len(dealt_cards(siete_table)) == 1


def test_a_misread_holds_the_shoe_cards_until_the_card_is_entered_and_approved(
    siete_table: Table,
    siete_shoe: Device,
    dealer_dora: User,
    pit_boss_paula: User,
) -> None:
    start_siete_round(siete_table, dealer_dora, {1: 20, 2: 20})
    line = Line("SIM-SYM-02")
    assert line.card("1O") == "accepted"
    assert line.send(CardMisread(2, 0x03, 0)) == "held"
    assert line.card("6B") == "held"  # the bank's card waits behind the unread one
    assert [card for card, _, _ in dealt_cards(siete_table)] == ["1O"]
    hold = MisreadHold.objects.get()
    assert Alert.objects.filter(table=siete_table, code="shoe_misread").exists()

    with pytest.raises(RuleError) as same_person:
        misread_resolve(
            hold_id=hold.pk, card="2C", requested_by=pit_boss_paula, approved_by=pit_boss_paula
        )
    assert same_person.value.code == "own_request"
    with pytest.raises(RuleError):
        misread_resolve(
            hold_id=hold.pk, card="2C", requested_by=pit_boss_paula, approved_by=dealer_dora
        )
    misread_resolve(
        hold_id=hold.pk, card="2C", requested_by=dealer_dora, approved_by=pit_boss_paula
    )
    assert dealt_cards(siete_table) == [
        ("1O", 1, "shoe"), ("2C", 2, "tablet"), ("6B", None, "shoe")
    ]  # fmt: skip
    verdicts = list(DeviceEvent.objects.order_by("seq").values_list("verdict", "reason"))
    assert verdicts == [("accepted", ""), ("accepted", "entered"), ("accepted", "")]
    assert verify_table(siete_table).ok


def test_a_card_the_rules_refuse_is_stored_rejected_alerted_and_still_acknowledged(
    siete_table: Table, siete_shoe: Device, dealer_dora: User
) -> None:
    start_siete_round(siete_table, dealer_dora, {1: 20})
    line = Line("SIM-SYM-02")
    uid = b"\xaa\xbb\xcc"
    assert line.card("7C", uid=uid) == "accepted"
    # The same physical card read again: the round holds itself for the pit boss...
    assert line.card("7C", uid=uid) == "duplicate"
    # ...and while it is held, the rules refuse any card: stored as rejected, never lost.
    assert line.card("3O") == "rejected"
    rejected = DeviceEvent.objects.get(verdict="rejected")
    assert rejected.reason == "round_held"
    alert = Alert.objects.get(table=siete_table, code="shoe_card_refused")
    assert alert.event.type == "device.card_refused"
    assert alert.details["device_event"] == rejected.pk
    assert "3O" not in str(alert.details)  # a face-down read never reaches the pit's screen
    assert verify_table(siete_table).ok


def test_an_unknown_serial_is_quarantined_and_alerted_and_touches_no_round(
    siete_table: Table, siete_shoe: Device, dealer_dora: User
) -> None:
    start_siete_round(siete_table, dealer_dora, {1: 20})
    line = Line("SIM-STRANGER", table_serial="SIM-SYM-02")
    assert line.verdict.accepted
    assert line.verdict.key is None
    assert line.card("5O") == "quarantined"
    stranger = Device.objects.get(serial="SIM-STRANGER")
    assert stranger.status == Device.Status.QUARANTINED
    assert DeviceEvent.objects.get().verdict == "quarantined"
    assert dealt_cards(siete_table) == []
    alert = Alert.objects.get(table=siete_table, code="shoe_quarantined")
    assert alert.details["problem"] == "not_this_port"


def test_a_retired_shoe_is_quarantined_and_its_cards_touch_no_round(
    siete_table: Table, siete_shoe: Device, dealer_dora: User, pit_boss_pedro: User
) -> None:
    start_siete_round(siete_table, dealer_dora, {1: 20})
    device_retire(device_id=siete_shoe.pk, by=pit_boss_pedro, reason="replaced")
    line = Line("SIM-SYM-02")
    assert line.card("5O") == "quarantined"
    assert dealt_cards(siete_table) == []
    incident = DeviceIncident.objects.get(device=siete_shoe, kind="quarantined")
    assert incident.details["problem"] == "retired"


def test_a_shoe_retired_mid_session_stops_feeding_its_table(
    siete_table: Table, siete_shoe: Device, dealer_dora: User, pit_boss_pedro: User
) -> None:
    start_siete_round(siete_table, dealer_dora, {1: 20, 2: 20})
    line = Line("SIM-SYM-02")
    assert line.card("5O") == "accepted"
    device_retire(device_id=siete_shoe.pk, by=pit_boss_pedro, reason="lid forced")
    assert line.card("6O") == "quarantined"
    assert [card for card, _, _ in dealt_cards(siete_table)] == ["5O"]


def test_a_shoe_reporting_other_firmware_than_registered_is_quarantined(
    siete_table: Table, siete_shoe: Device, dealer_dora: User
) -> None:
    Line("SIM-SYM-02")  # the first accepted HELLO records the identity
    siete_shoe.refresh_from_db()
    assert siete_shoe.firmware_version == "1.0.0"
    start_siete_round(siete_table, dealer_dora, {1: 20})
    line = Line("SIM-SYM-02")
    line.verdict = line.sink.device_hello(hello("SIM-SYM-02", firmware_version="6.6.6"), BOOT)
    assert line.card("5O") == "quarantined"
    assert dealt_cards(siete_table) == []
    assert Alert.objects.filter(table=siete_table, code="shoe_quarantined").exists()


def test_a_wrong_key_quarantines_the_shoe_and_alerts_its_table(
    siete_table: Table, siete_shoe: Device
) -> None:
    sink = DjangoLinkSink("SIM-SYM-02")
    sink.session_refused(hello("SIM-SYM-02"), "HELLO is not signed with the registered key")
    sink.session_refused(hello("SIM-SYM-02"), "HELLO is not signed with the registered key")
    siete_shoe.refresh_from_db()
    assert siete_shoe.status == Device.Status.QUARANTINED
    assert Alert.objects.filter(table=siete_table, code="shoe_session_refused").count() == 1


@pytest.fixture
def stud_table(pit_boss_paula: User) -> Table:
    settings = {"small_bet": 10, "big_bet": 20, "ante": 2, "bring_in": 5}
    return open_table("STUD-02", "seven_card_stud", settings, pit_boss_paula)


def test_stud_cards_follow_the_deal_and_the_burn_before_fourth_street(
    stud_table: Table, pit_boss_paula: User, pit_boss_pedro: User, dealer_dora: User
) -> None:
    bound(stud_table, "SIM-STUD-02", pit_boss_paula, pit_boss_pedro)
    dealer_assign(table_id=stud_table.pk, dealer=dealer_dora, by=pit_boss_paula)
    seats = (SeatEntry(1, "ana", 200), SeatEntry(2, "bruno", 200))
    table_command(table_id=stud_table.pk, command=StartHand(seats), actor=None, source="system")
    line = Line("SIM-STUD-02")
    for code in ("2c", "3c", "4d", "5d", "Kh", "9s"):
        assert line.card(code, DeckType.FRENCH) == "accepted"
    rows = TableEvent.objects.filter(table=stud_table, type="card.dealt").order_by("seq")
    assert [(r.payload["seat"], r.payload["face"]) for r in rows] == [
        (1, "down"), (2, "down"), (1, "down"), (2, "down"), (1, "up"), (2, "up")
    ]  # fmt: skip
    # Seat 2 (9s) brings in; seat 1 calls; then the shoe's next card is the burn.
    for kind, seat in (("bring_in", 2), ("call", 1)):
        command = Action(kind, seat)
        table_command(table_id=stud_table.pk, command=command, actor=dealer_dora, source="tablet")
    assert line.card("Ac", DeckType.FRENCH) == "accepted"
    assert TableEvent.objects.filter(table=stud_table, type="card.burned").count() == 1
    assert line.card("Ad", DeckType.FRENCH) == "accepted"
    fourth = TableEvent.objects.filter(table=stud_table, type="card.dealt").order_by("-seq")[0]
    assert (fourth.payload["card"], fourth.payload["street"]) == ("Ad", 4)
    assert verify_table(stud_table).ok


def test_a_gap_alerts_the_pit_until_a_pit_boss_writes_it_off(
    siete_table: Table, siete_shoe: Device, dealer_dora: User, pit_boss_paula: User
) -> None:
    line = Line("SIM-SYM-02")
    assert line.send(ShoeLoaded(DeckType.SPANISH, 1, 7, 0)) == "accepted"
    line.sink.open_gap(BOOT, 2, 4)
    gap = DeviceGap.objects.get()
    assert Alert.objects.filter(table=siete_table, code="shoe_gap").exists()
    assert line.sink.last_committed_seq(BOOT) == 1
    with pytest.raises(NotAllowedNowError):
        gap_resolve(gap_id=gap.pk, by=dealer_dora, note="")
    gap_resolve(gap_id=gap.pk, by=pit_boss_paula, note="lost in a power cut")
    assert line.sink.last_committed_seq(BOOT) == 4  # the link resumes after the write-off
    late = CardDrawn(3, card_byte(DeckType.SPANISH, "2O"), 3, 0, b"\x03")
    assert line.sink.commit(BOOT, 3, late) == "accepted"  # arrived after all: recorded, late
    assert line.sink.last_committed_seq(BOOT) == 4


def test_a_tamper_a_fault_and_a_wrong_deck_alert_the_pit(
    siete_table: Table, siete_shoe: Device
) -> None:
    line = Line("SIM-SYM-02")
    assert line.send(ShoeLoaded(DeckType.FRENCH, 1, 7, 0)) == "accepted"
    assert line.send(Tamper(Tamper.KIND_LID, True, 0)) == "accepted"
    assert line.send(Fault(0x09, 2, True, 0)) == "accepted"
    assert line.send(Fault(0x09, 2, False, 0)) == "accepted"  # cleared: no alert
    codes = sorted(Alert.objects.filter(table=siete_table).values_list("code", flat=True))
    assert codes == ["shoe_fault", "shoe_tamper", "shoe_wrong_deck"]


def test_a_fault_of_ours_while_applying_a_card_is_stored_alerted_and_the_line_goes_on(
    siete_table: Table, siete_shoe: Device, dealer_dora: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    start_siete_round(siete_table, dealer_dora, {1: 20})
    line = Line("SIM-SYM-02")

    def broken(*_: Any) -> None:
        raise KeyError("a bug")

    with monkeypatch.context() as patched:
        patched.setattr("devices.applying.apply_card", broken)
        assert line.card("5O") == "rejected"
    kept = DeviceEvent.objects.get()
    assert (kept.reason, kept.card) == ("internal_error", "5O")
    assert Alert.objects.filter(table=siete_table, code="shoe_card_refused").exists()
    assert line.card("6O") == "accepted"
    assert verify_table(siete_table).ok
