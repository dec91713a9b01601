import pytest

from devices.codec.cobs import CobsError, cobs_decode, cobs_encode
from devices.codec.crc import crc16_ccitt_false
from devices.codec.frames import (
    DELIMITER,
    FLAG_AUTH,
    MAX_SEQ,
    Frame,
    FrameError,
    RejectReason,
    decode_frame,
    encode_frame,
    next_seq,
    seq_is_after,
    tag_is_valid,
    wire_bytes,
)

COBS_VECTORS = [
    (b"", b"\x01"),
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
    (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255)) + b"\x01"),
    (bytes(range(255)), b"\x01\xff" + bytes(range(1, 255)) + b"\x01"),
    (bytes(range(1, 256)), b"\xff" + bytes(range(1, 255)) + b"\x02\xff"),
]


@pytest.mark.parametrize(("raw", "encoded"), COBS_VECTORS)
def test_cobs_matches_the_published_vectors(raw: bytes, encoded: bytes) -> None:
    assert cobs_encode(raw) == encoded
    assert cobs_decode(encoded) == raw


def test_cobs_output_never_contains_the_delimiter() -> None:
    data = bytes(range(256)) * 3
    assert 0 not in cobs_encode(data)


@pytest.mark.parametrize("bad", [b"\x05\x11\x22", b"\x03\x11\x00", b"\x00"])
def test_cobs_refuses_truncated_or_zero_bearing_input(bad: bytes) -> None:
    with pytest.raises(CobsError):
        cobs_decode(bad)


def test_crc_matches_the_ccitt_false_check_value() -> None:
    assert crc16_ccitt_false(b"123456789") == 0x29B1


def test_crc_of_nothing_is_the_initial_value() -> None:
    assert crc16_ccitt_false(b"") == 0xFFFF


def test_frame_layout_is_big_endian_with_crc_last() -> None:
    frame = Frame(type=0x10, boot_id=0x01020304, seq=0x0506, payload=b"\xaa\xbb", flags=1)
    raw = encode_frame(frame)
    assert raw[:12] == bytes([1, 0x10, 1, 1, 2, 3, 4, 5, 6, 2, 0xAA, 0xBB])
    assert int.from_bytes(raw[-2:], "big") == crc16_ccitt_false(raw[:-2])
    assert decode_frame(raw) == frame


def test_wire_form_is_delimited_on_both_sides() -> None:
    wire = wire_bytes(Frame(type=0x02, boot_id=7, seq=0))
    assert wire.startswith(DELIMITER)
    assert wire.endswith(DELIMITER)
    assert 0 not in wire[1:-1]


def test_a_keyed_frame_carries_a_tag_that_verifies() -> None:
    key = b"shoe-key-0001"
    frame = Frame(type=0x10, boot_id=9, seq=3, payload=b"card", flags=1)
    raw = encode_frame(frame, key)
    decoded = decode_frame(raw, key)
    assert decoded.flags & FLAG_AUTH
    assert len(decoded.auth) == 8
    assert tag_is_valid(decoded, key)
    assert (decoded.type, decoded.boot_id, decoded.seq, decoded.payload) == (0x10, 9, 3, b"card")


def test_a_wrong_key_is_refused_as_an_auth_failure() -> None:
    raw = encode_frame(Frame(type=0x10, boot_id=9, seq=3, payload=b"card"), b"right key")
    with pytest.raises(FrameError) as refused:
        decode_frame(raw, b"wrong key")
    assert refused.value.reason is RejectReason.AUTH


def test_an_untagged_frame_is_refused_when_a_key_is_expected() -> None:
    raw = encode_frame(Frame(type=0x10, boot_id=9, seq=3, payload=b"card"))
    with pytest.raises(FrameError) as refused:
        decode_frame(raw, b"key")
    assert refused.value.reason is RejectReason.AUTH


def test_a_tagged_frame_decodes_without_a_key_but_its_tag_is_then_unverified() -> None:
    raw = encode_frame(Frame(type=0x10, boot_id=9, seq=3), b"key")
    decoded = decode_frame(raw)
    assert tag_is_valid(decoded, b"key")
    assert not tag_is_valid(decoded, b"other")


def _with_valid_crc(body: bytes) -> bytes:
    return body + crc16_ccitt_false(body).to_bytes(2, "big")


def test_an_unknown_version_is_refused_even_with_a_good_crc() -> None:
    raw = bytearray(encode_frame(Frame(type=0x10, boot_id=1, seq=1)))
    raw[0] = 2
    with pytest.raises(FrameError) as refused:
        decode_frame(_with_valid_crc(bytes(raw[:-2])))
    assert refused.value.reason is RejectReason.VERSION


def test_a_length_field_that_disagrees_is_refused_even_with_a_good_crc() -> None:
    raw = bytearray(encode_frame(Frame(type=0x10, boot_id=1, seq=1, payload=b"abc")))
    raw[9] = 2
    with pytest.raises(FrameError) as refused:
        decode_frame(_with_valid_crc(bytes(raw[:-2])))
    assert refused.value.reason is RejectReason.LENGTH


def test_a_payload_over_200_bytes_cannot_be_sent() -> None:
    with pytest.raises(ValueError, match="exceeds"):
        encode_frame(Frame(type=0x10, boot_id=1, seq=1, payload=bytes(201)))


def test_seq_wraps_from_65535_to_1_skipping_the_reserved_zero() -> None:
    assert next_seq(MAX_SEQ) == 1
    assert next_seq(1) == 2
    assert seq_is_after(1, MAX_SEQ)
    assert seq_is_after(1, 0)
    assert not seq_is_after(MAX_SEQ, 1)
    assert not seq_is_after(5, 5)


def test_the_challenge_response_binds_key_nonce_boot_and_serial() -> None:
    import hashlib
    import hmac

    from devices.codec.challenge import challenge_response, response_matches

    nonce = bytes(range(16))
    expected = hmac.new(
        b"k", nonce + b"\x00\x00\x00\x07" + b"SN-1".ljust(16, b"\x00"), hashlib.sha256
    ).digest()
    assert challenge_response(b"k", nonce, 7, "SN-1") == expected
    assert response_matches(b"k", nonce, 7, "SN-1", expected)
    assert not response_matches(b"k", nonce, 8, "SN-1", expected)
    assert not response_matches(b"other", nonce, 7, "SN-1", expected)
    assert not response_matches(b"k", bytes(16), 7, "SN-1", expected)
