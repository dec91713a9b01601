"""Whatever arrives on the line, run_shoe counts it, answers per the protocol, never crashes and
never records a card that was not drawn. The shoe here is a script writing raw frames on a real
pseudo-terminal; run_shoe reads the other end of the relay with real pyserial."""

from __future__ import annotations

import hashlib
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import serial
from django.contrib.auth.models import User
from shoe_floor_harness import QUIET_LINK, bind_shoe, fast_password_hashing
from shoe_link_harness import relayed_line, wait_until

from devices.codec.cards import DeckType, card_byte
from devices.codec.catalogue import decode_message, message_frame
from devices.codec.frames import wire_bytes
from devices.codec.host_messages import Ack, HostHello, Nak, Resync
from devices.codec.message_types import Message
from devices.codec.messages import CardDrawn, Hello
from devices.codec.stream import StreamDecoder
from devices.models import Device, DeviceEvent, MisreadHold
from devices.registry.holds import misread_resolve
from devices.shoe_daemon import ShoeRun, run_shoe
from tables.engine import siete
from tables.models import Table, TableEvent
from tables.services.commands import table_command
from tables.services.floor import dealer_assign, table_create, table_set_status
from tables.verification import verify_table

pytestmark = pytest.mark.django_db
__all__ = ["fast_password_hashing"]
BOOT, GHOST_BOOT = 0x0BADF00D, 0x00C0FFEE
FIRMWARE_HASH = hashlib.sha256(b"scripted shoe").digest()


class ScriptedShoe:
    """A shoe that writes exactly the bytes the test says, and reads what the host answers."""

    def __init__(self, url: str) -> None:
        self.port = serial.serial_for_url(url, baudrate=115200, timeout=0.02)
        self.decoder = StreamDecoder()
        self.heard: list[Message] = []
        self.unread: list[Message] = []

    def frame(self, message: Message, seq: int, boot_id: int = BOOT) -> bytes:
        return wire_bytes(message_frame(message, boot_id=boot_id, seq=seq), None)

    def write(self, data: bytes) -> None:
        self.port.write(data)

    def send(self, message: Message, seq: int, boot_id: int = BOOT) -> bytes:
        data = self.frame(message, seq, boot_id)
        self.write(data)
        return data

    def expect(self, wanted: Callable[[Message], bool], timeout_s: float = 5.0) -> Message:
        """The next matching answer; the ones before it are passed over."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            while self.unread:
                message = self.unread.pop(0)
                self.heard.append(message)
                if wanted(message):
                    return message
            self.unread = [decode_message(f) for f in self.decoder.feed(self.port.read(4096))]
        raise AssertionError(f"the host did not answer as expected; heard {self.heard[-5:]}")

    def expect_ack(self, seq: int, boot_id: int = BOOT) -> None:
        self.expect(lambda m: m == Ack(boot_id, seq))

    def hello(self, serial_number: str, boot_id: int = BOOT) -> None:
        """HELLO, repeated once a second as a shoe does until the host answers."""
        for _ in range(5):
            self.send(Hello(serial_number, "SCRIPT", "1.0.0", FIRMWARE_HASH), 0, boot_id)
            try:
                self.expect(lambda m: isinstance(m, HostHello), timeout_s=1.0)
                break
            except AssertionError:
                continue
        self.expect(lambda m: isinstance(m, Resync) and m.boot_id == boot_id)


def card(code: str, draw_index: int) -> CardDrawn:
    uid = hashlib.sha256(code.encode()).digest()[:7]
    return CardDrawn(draw_index, card_byte(DeckType.SPANISH, code), CardDrawn.METHOD_RFID, 0, uid)


def play_the_line(shoe: ScriptedShoe) -> None:
    shoe.write(random.Random(4).randbytes(600))  # noise as the port opens
    half = shoe.frame(card("1C", 1), 1)
    shoe.write(half[: len(half) // 2])  # half a frame, cut by the next delimiter
    shoe.hello("SIM-SYM-09")
    shoe.send(card("7O", 1), 1)
    shoe.expect_ack(1)
    replayed = shoe.frame(card("7O", 1), 1)
    shoe.write(replayed)  # a replayed frame: ACKed again, applied once
    shoe.expect_ack(1)
    corrupt = bytearray(shoe.frame(card("3O", 2), 2))
    corrupt[len(corrupt) // 2] ^= 0x40
    shoe.write(bytes(corrupt))  # a damaged frame is NAKed
    shoe.expect(lambda m: isinstance(m, Nak))
    impossible = CardDrawn(2, 0x9F, CardDrawn.METHOD_OPTICAL, 0, b"")  # no such Spanish card
    shoe.send(impossible, 2)
    shoe.expect_ack(2)
    shoe.send(card("4B", 4), 4)  # seq 3 is missing: the host asks to resend from 2
    shoe.expect(lambda m: m == Resync(BOOT, 2))
    shoe.send(card("5C", 3), 3)
    shoe.expect_ack(3)
    shoe.send(card("4B", 4), 4)
    shoe.expect_ack(4)
    shoe.hello("SIM-GHOST", GHOST_BOOT)  # a frame from a device nobody enrolled
    shoe.send(card("6E", 1), 1, GHOST_BOOT)
    shoe.expect_ack(1, GHOST_BOOT)


def test_bad_input_is_counted_and_answered_and_only_drawn_cards_are_recorded(
    tmp_path: Path, dealer_dora: User, pit_boss_paula: User, pit_boss_pedro: User
) -> None:
    table = table_create(name="SYM-09", game="siete_y_medio", seat_count=6)
    table_set_status(table_id=table.pk, status=Table.Status.OPEN, actor=pit_boss_paula)
    bind_shoe(table, "SIM-SYM-09", requested_by=pit_boss_paula, approved_by=pit_boss_pedro)
    dealer_assign(table_id=table.pk, dealer=dealer_dora, by=pit_boss_paula)
    table_command(table_id=table.pk, command=siete.StartRound(), actor=dealer_dora, source="tablet")
    for box in (1, 2, 3):
        command = siete.PlaceWager(box=box, amount=10)
        table_command(table_id=table.pk, command=command, actor=dealer_dora, source="tablet")
    failures: list[BaseException] = []
    with relayed_line(tmp_path) as wiring:
        run = ShoeRun("SIM-SYM-09", wiring.host_url)

        def script() -> None:
            shoe = ScriptedShoe(wiring.device_url)
            try:
                reading = wait_until(lambda: run.counters.port_openings >= 1, 10)
                assert reading, "run_shoe did not open its port"
                play_the_line(shoe)
            except BaseException as failure:  # re-raised in the test thread below
                failures.append(failure)
            finally:
                shoe.port.close()
                run.stop.set()

        scripted = threading.Thread(target=script, daemon=True)
        scripted.start()
        run_shoe("SIM-SYM-09", wiring.host_url, settings=QUIET_LINK, run=run)
        scripted.join(timeout=10)
    if failures:
        raise failures[0]

    counters = run.counters
    assert sum(counters.rejections.values()) >= 2  # the noise and the half frame, at least
    assert counters.naks_sent >= 1
    assert counters.duplicates >= 1
    assert counters.gaps_seen >= 1
    dealt = TableEvent.objects.filter(table=table, type="card.dealt")
    assert [row.payload["card"] for row in dealt] == ["7O"]
    device = Device.objects.get(serial="SIM-SYM-09")
    verdicts = DeviceEvent.objects.filter(device=device).order_by("seq")
    assert [(e.seq, e.verdict, e.card) for e in verdicts] == [
        (1, "accepted", "7O"), (2, "held", ""), (3, "held", "5C"), (4, "held", "4B")
    ]  # fmt: skip
    ghost = DeviceEvent.objects.get(device__serial="SIM-GHOST")
    assert (ghost.verdict, ghost.table) == ("quarantined", None)

    # The dealer enters the unread card, a pit boss approves, and the waiting cards follow it.
    hold = MisreadHold.objects.get()
    misread_resolve(
        hold_id=hold.pk, card="2C", requested_by=dealer_dora, approved_by=pit_boss_paula
    )
    hands = [(row.payload["card"], row.payload["box"]) for row in dealt.order_by("seq")]
    assert hands == [("7O", 1), ("2C", 2), ("5C", 3), ("4B", None)]
    assert verify_table(table).ok
