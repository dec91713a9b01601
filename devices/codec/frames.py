"""The SHOE-LINK/1 frame: header, payload, optional HMAC tag, CRC; and its delimited wire form."""

import hashlib
import hmac
import struct
from dataclasses import dataclass
from enum import Enum

from devices.codec.cobs import CobsError, cobs_decode, cobs_encode, max_encoded_size
from devices.codec.crc import crc16_ccitt_false

PROTOCOL_VERSION = 0x01
DELIMITER = b"\x00"

FLAG_ACK_REQUIRED = 0x01
FLAG_RETRANSMISSION = 0x02
FLAG_AUTH = 0x04

HEADER_SIZE = 10
CRC_SIZE = 2
AUTH_TAG_SIZE = 8
MAX_PAYLOAD = 200
MIN_FRAME_SIZE = HEADER_SIZE + CRC_SIZE
MAX_FRAME_SIZE = HEADER_SIZE + MAX_PAYLOAD + AUTH_TAG_SIZE + CRC_SIZE
MAX_ENCODED_FRAME_SIZE = max_encoded_size(MAX_FRAME_SIZE)

MAX_SEQ = 0xFFFF
MAX_BOOT_ID = 0xFFFFFFFF

_HEADER = struct.Struct(">BBBIHB")


class RejectReason(Enum):
    COBS = "cobs"
    LENGTH = "length"
    CRC = "crc"
    VERSION = "version"
    OVERSIZE = "oversize"
    AUTH = "auth"


class FrameError(ValueError):
    """A received frame was discarded; `reason` says which check refused it."""

    def __init__(self, reason: RejectReason, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Frame:
    type: int
    boot_id: int
    seq: int
    payload: bytes = b""
    flags: int = 0
    ver: int = PROTOCOL_VERSION
    auth: bytes = b""

    @property
    def ack_required(self) -> bool:
        return bool(self.flags & FLAG_ACK_REQUIRED)

    @property
    def retransmission(self) -> bool:
        return bool(self.flags & FLAG_RETRANSMISSION)

    @property
    def key(self) -> tuple[int, int]:
        return (self.boot_id, self.seq)


def auth_tag(key: bytes, signed_bytes: bytes) -> bytes:
    return hmac.new(key, signed_bytes, hashlib.sha256).digest()[:AUTH_TAG_SIZE]


def _header_and_payload(frame: Frame, flags: int) -> bytes:
    if len(frame.payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(frame.payload)} bytes exceeds {MAX_PAYLOAD}")
    header = _HEADER.pack(
        frame.ver, frame.type, flags, frame.boot_id, frame.seq, len(frame.payload)
    )
    return header + frame.payload


def encode_frame(frame: Frame, key: bytes | None = None) -> bytes:
    """The raw frame bytes (before COBS). With a key, the auth flag is set and the tag added."""
    flags = (frame.flags | FLAG_AUTH) if key is not None else (frame.flags & ~FLAG_AUTH)
    body = _header_and_payload(frame, flags)
    if key is not None:
        body += auth_tag(key, body)
    return body + struct.pack(">H", crc16_ccitt_false(body))


def wire_bytes(frame: Frame, key: bytes | None = None) -> bytes:
    """`0x00 ‖ COBS(frame) ‖ 0x00`: a delimiter on each side, so noise destroys only itself."""
    return DELIMITER + cobs_encode(encode_frame(frame, key)) + DELIMITER


def decode_frame(raw: bytes, key: bytes | None = None) -> Frame:
    """Check and parse raw frame bytes. With a key, a valid tag is required."""
    if len(raw) < MIN_FRAME_SIZE:
        raise FrameError(RejectReason.LENGTH, f"{len(raw)} bytes is shorter than any frame")
    body, crc_bytes = raw[:-CRC_SIZE], raw[-CRC_SIZE:]
    if crc16_ccitt_false(body) != int.from_bytes(crc_bytes, "big"):
        raise FrameError(RejectReason.CRC, "CRC mismatch")
    ver, type_, flags, boot_id, seq, length = _HEADER.unpack_from(body)
    if ver != PROTOCOL_VERSION:
        raise FrameError(RejectReason.VERSION, f"unknown protocol version {ver}")
    tag_size = AUTH_TAG_SIZE if flags & FLAG_AUTH else 0
    if length > MAX_PAYLOAD or len(body) != HEADER_SIZE + length + tag_size:
        raise FrameError(RejectReason.LENGTH, "length field does not match the frame")
    signed = body[: HEADER_SIZE + length]
    tag = body[HEADER_SIZE + length :]
    frame = Frame(type_, boot_id, seq, signed[HEADER_SIZE:], flags, ver, tag)
    if key is not None and not tag_is_valid(frame, key):
        raise FrameError(RejectReason.AUTH, "missing or wrong authentication tag")
    return frame


def tag_is_valid(frame: Frame, key: bytes) -> bool:
    if not frame.flags & FLAG_AUTH:
        return False
    signed = _header_and_payload(frame, frame.flags)
    return hmac.compare_digest(auth_tag(key, signed), frame.auth)


def decode_wire_chunk(encoded: bytes, key: bytes | None = None) -> Frame:
    """Decode the bytes found between two delimiters."""
    if len(encoded) > MAX_ENCODED_FRAME_SIZE:
        raise FrameError(RejectReason.LENGTH, "encoded frame longer than the largest frame")
    try:
        raw = cobs_decode(encoded)
    except CobsError as error:
        raise FrameError(RejectReason.COBS, str(error)) from error
    return decode_frame(raw, key)


def next_seq(seq: int) -> int:
    """Sequence numbers run 1…65535 and wrap to 1; 0 is reserved."""
    return 1 if seq >= MAX_SEQ else seq + 1


def seq_distance(later: int, earlier: int) -> int:
    """How many steps forward `later` is from `earlier` in the wrapping 1…65535 space.

    `earlier` may be 0 ("nothing yet"), from which seq 1 is one step forward.
    """
    if earlier == 0:
        return later
    return (later - earlier) % MAX_SEQ


def seq_is_after(later: int, earlier: int) -> bool:
    """True when `later` lies within half the sequence space ahead of `earlier`."""
    return 0 < seq_distance(later, earlier) <= MAX_SEQ // 2
