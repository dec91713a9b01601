"""Checked conversions between fixed payload fields and Python values."""

import struct

from devices.codec.message_types import MessageError, NakReason


def exact_fields(layout: struct.Struct, payload: bytes, name: str) -> tuple[object, ...]:
    if len(payload) != layout.size:
        raise MessageError(NakReason.LEN, f"{name} payload must be {layout.size} bytes")
    return layout.unpack(payload)


def text_field(value: str, size: int, name: str) -> bytes:
    encoded = value.encode("ascii")
    if len(encoded) > size or b"\x00" in encoded:
        raise ValueError(f"{name} must be at most {size} ASCII characters without NUL")
    return encoded.ljust(size, b"\x00")


def read_text(raw: object) -> str:
    try:
        return as_bytes(raw).rstrip(b"\x00").decode("ascii")
    except UnicodeDecodeError as error:
        raise MessageError(NakReason.LEN, "text field is not ASCII") from error


def as_int(raw: object) -> int:
    assert isinstance(raw, int)
    return raw


def as_bytes(raw: object) -> bytes:
    assert isinstance(raw, bytes)
    return raw


def as_flag(raw: object) -> bool:
    if raw not in (0, 1):
        raise MessageError(NakReason.LEN, "a set/clear flag must be 0 or 1")
    return raw == 1
