import pytest

from devices.codec.cards import (
    CUT_CARD_BYTE,
    UNIDENTIFIED_BYTE,
    DeckType,
    card_byte,
    card_code,
    deck_bytes,
    is_cut_card,
)
from devices.codec.catalogue import ACKED_TYPES, decode_message, message_frame
from devices.codec.frames import decode_frame, encode_frame
from devices.codec.host_messages import Ack, HostHeartbeat, HostHello, Nak, Resync
from devices.codec.message_types import Message, MessageError, MessageType, NakReason
from devices.codec.messages import (
    AuthResponse,
    CardDrawn,
    CardMisread,
    CutCard,
    DrawAborted,
    Fault,
    Heartbeat,
    Hello,
    ShoeEmpty,
    ShoeLoaded,
    Tamper,
)

ONE_OF_EACH: list[Message] = [
    Hello("SN-000123", "LS-4", "2.1.0", bytes(range(32)), 1, Hello.CAPABILITY_KEYED, 17),
    Heartbeat(uptime_ms=123456, status=Heartbeat.STATUS_LID_OPEN, cards_drawn=52, queue_depth=3),
    AuthResponse(bytes(range(100, 132))),
    CardDrawn(draw_index=1, card=0x07, method=CardDrawn.METHOD_RFID, dev_ms=999, uid=b"\x04\xa1"),
    CardDrawn(draw_index=65535, card=0xFF, method=1, dev_ms=2**32 - 1),
    CardMisread(draw_index=12, reason=0x03, dev_ms=5000),
    CutCard(draw_index=180, dev_ms=7000),
    ShoeEmpty(cards_drawn=208, dev_ms=8000),
    ShoeLoaded(deck_type=DeckType.SPANISH, deck_count=6, shuffle_id=0xDEADBEEF, dev_ms=1),
    DrawAborted(draw_index=4, reason=0x05, dev_ms=77),
    Fault(code=0x09, severity=3, active=True, dev_ms=10),
    Tamper(kind=Tamper.KIND_LID, active=False, dev_ms=11),
    Ack(boot_id=0xCAFEBABE, seq=65535),
    Nak(reason=NakReason.CRC, boot_id=0x01020304, highest_contiguous_seq=41),
    HostHello(
        host_time_ms=1_800_000_000_000,
        nonce=bytes(16),
        heartbeat_interval_ms=1000,
        table_id="SYM-03",
    ),
    Resync(boot_id=77, after_seq=12),
    HostHeartbeat(host_time_ms=1_800_000_000_001),
]


@pytest.mark.parametrize("message", ONE_OF_EACH, ids=lambda m: type(m).__name__)
def test_every_message_survives_a_round_trip_through_a_keyed_frame(message: Message) -> None:
    frame = message_frame(message, boot_id=0x11223344, seq=9)
    decoded_frame = decode_frame(encode_frame(frame, b"k"), b"k")
    assert decode_message(decoded_frame) == message
    assert decoded_frame.ack_required == (message.TYPE in ACKED_TYPES)


def test_every_message_type_has_a_round_trip_case() -> None:
    assert {m.TYPE for m in ONE_OF_EACH} == set(MessageType)


@pytest.mark.parametrize("message", ONE_OF_EACH, ids=lambda m: type(m).__name__)
def test_a_payload_one_byte_short_is_a_length_error(message: Message) -> None:
    frame = message_frame(message, boot_id=1, seq=1)
    short = type(frame)(frame.type, frame.boot_id, frame.seq, frame.payload[:-1] or b"")
    if short.payload == frame.payload:
        pytest.skip("empty payload")
    with pytest.raises(MessageError) as refused:
        decode_message(short)
    assert refused.value.nak_reason is NakReason.LEN


def test_an_unknown_type_is_a_type_error() -> None:
    frame = message_frame(Ack(1, 1), boot_id=1, seq=1)
    with pytest.raises(MessageError) as refused:
        decode_message(type(frame)(0x7F, 1, 1, frame.payload))
    assert refused.value.nak_reason is NakReason.TYPE


def test_a_card_uid_longer_than_declared_is_refused() -> None:
    payload = CardDrawn(1, 0x01, 3, 0, b"\x01\x02").pack() + b"\x03"
    with pytest.raises(MessageError):
        CardDrawn.unpack(payload)


def test_heartbeat_is_the_only_device_message_without_ack() -> None:
    device_types = {t for t in MessageType if t < 0x80}
    assert device_types - ACKED_TYPES == {MessageType.HEARTBEAT}


@pytest.mark.parametrize(
    ("wire", "code"),
    [(0x01, "1O"), (0x07, "7O"), (0x1A, "10C"), (0x2B, "11E"), (0x3C, "12B"), (0x21, "1E")],
)
def test_spanish_card_bytes_map_to_project_codes(wire: int, code: str) -> None:
    assert card_code(DeckType.SPANISH, wire) == code
    assert card_byte(DeckType.SPANISH, code) == wire


@pytest.mark.parametrize(
    ("wire", "code"),
    [
        (0x01, "Ac"),
        (0x0A, "Tc"),
        (0x1A, "Td"),
        (0x27, "7h"),
        (0x3B, "Js"),
        (0x3C, "Qs"),
        (0x3D, "Ks"),
        (0x02, "2c"),
    ],
)
def test_french_card_bytes_map_to_project_codes(wire: int, code: str) -> None:
    assert card_code(DeckType.FRENCH, wire) == code
    assert card_byte(DeckType.FRENCH, code) == wire


@pytest.mark.parametrize("wire", [0x08, 0x09, 0x0D, 0x00, 0x40, 0x1F, UNIDENTIFIED_BYTE, 0xE0])
def test_spanish_values_outside_the_deck_are_unidentified(wire: int) -> None:
    assert card_code(DeckType.SPANISH, wire) is None


@pytest.mark.parametrize("wire", [0x00, 0x0E, 0x0F, 0x40, 0x10, UNIDENTIFIED_BYTE, 0xE0])
def test_french_values_outside_the_deck_are_unidentified(wire: int) -> None:
    assert card_code(DeckType.FRENCH, wire) is None


def test_each_deck_table_is_complete_and_one_to_one() -> None:
    for deck, size in ((DeckType.SPANISH, 40), (DeckType.FRENCH, 52)):
        codes = [card_code(deck, b) or "?" for b in deck_bytes(deck)]
        assert len(set(codes)) == size
        assert all(card_byte(deck, c) == b for c, b in zip(codes, deck_bytes(deck), strict=True))


def test_every_byte_is_either_a_card_the_cut_card_or_unidentified() -> None:
    for deck in DeckType:
        known = {b for b in range(256) if card_code(deck, b) is not None}
        assert known == set(deck_bytes(deck))
        assert CUT_CARD_BYTE not in known
    assert is_cut_card(0xE0)
    assert not is_cut_card(0xFF)


def test_a_code_from_the_other_deck_is_refused() -> None:
    with pytest.raises(ValueError, match="spanish"):
        card_byte(DeckType.SPANISH, "Ks")
