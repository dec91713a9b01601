"""The messages a shoe sends to the host, one frozen value per type with its fixed payload layout.

Layouts are big-endian and documented in docs/shoe-link-payloads.md.
"""

import struct
from dataclasses import dataclass
from typing import ClassVar, Self

from devices.codec.fields import (
    as_bytes,
    as_flag,
    as_int,
    exact_fields,
    read_text,
    text_field,
)
from devices.codec.message_types import (
    AUTH_RESPONSE_SIZE,
    FIRMWARE_HASH_SIZE,
    FIRMWARE_VERSION_SIZE,
    MAX_UID_SIZE,
    MODEL_SIZE,
    SERIAL_SIZE,
    MessageError,
    MessageType,
    NakReason,
)


@dataclass(frozen=True, slots=True)
class Hello:
    TYPE: ClassVar[MessageType] = MessageType.HELLO
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">16s16s12s32sBBH")
    CAPABILITY_KEYED: ClassVar[int] = 0x01

    serial: str
    model: str
    firmware_version: str
    firmware_hash: bytes
    protocol_version: int = 1
    capabilities: int = 0
    last_unacked_seq: int = 0

    @property
    def keyed(self) -> bool:
        return bool(self.capabilities & self.CAPABILITY_KEYED)

    def pack(self) -> bytes:
        return self.LAYOUT.pack(
            text_field(self.serial, SERIAL_SIZE, "serial"),
            text_field(self.model, MODEL_SIZE, "model"),
            text_field(self.firmware_version, FIRMWARE_VERSION_SIZE, "firmware_version"),
            self.firmware_hash.ljust(FIRMWARE_HASH_SIZE, b"\x00")[:FIRMWARE_HASH_SIZE],
            self.protocol_version,
            self.capabilities,
            self.last_unacked_seq,
        )

    @classmethod
    def unpack(cls, payload: bytes) -> Self:
        fields = exact_fields(cls.LAYOUT, payload, "HELLO")
        serial, model, version, fw_hash, proto, caps, last = fields
        return cls(
            read_text(serial),
            read_text(model),
            read_text(version),
            as_bytes(fw_hash),
            as_int(proto),
            as_int(caps),
            as_int(last),
        )


@dataclass(frozen=True, slots=True)
class Heartbeat:
    TYPE: ClassVar[MessageType] = MessageType.HEARTBEAT
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">IBHB")
    STATUS_LID_OPEN: ClassVar[int] = 0x01
    STATUS_TAMPER: ClassVar[int] = 0x02
    STATUS_SENSOR_FAULT: ClassVar[int] = 0x04

    uptime_ms: int
    status: int
    cards_drawn: int
    queue_depth: int

    def pack(self) -> bytes:
        return self.LAYOUT.pack(
            self.uptime_ms, self.status, self.cards_drawn, min(self.queue_depth, 255)
        )

    @classmethod
    def unpack(cls, payload: bytes) -> Self:
        uptime, status, drawn, depth = exact_fields(cls.LAYOUT, payload, "HEARTBEAT")
        return cls(as_int(uptime), as_int(status), as_int(drawn), as_int(depth))


@dataclass(frozen=True, slots=True)
class AuthResponse:
    TYPE: ClassVar[MessageType] = MessageType.AUTH_RESPONSE
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">32s")

    mac: bytes

    def pack(self) -> bytes:
        if len(self.mac) != AUTH_RESPONSE_SIZE:
            raise ValueError("the response is a full 32-byte HMAC-SHA-256")
        return self.LAYOUT.pack(self.mac)

    @classmethod
    def unpack(cls, payload: bytes) -> Self:
        (mac,) = exact_fields(cls.LAYOUT, payload, "AUTH_RESPONSE")
        return cls(as_bytes(mac))


@dataclass(frozen=True, slots=True)
class CardDrawn:
    TYPE: ClassVar[MessageType] = MessageType.CARD_DRAWN
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">HBBIB")
    METHOD_OPTICAL: ClassVar[int] = 1
    METHOD_BARCODE: ClassVar[int] = 2
    METHOD_RFID: ClassVar[int] = 3

    draw_index: int
    card: int
    method: int
    dev_ms: int
    uid: bytes = b""

    def pack(self) -> bytes:
        if len(self.uid) > MAX_UID_SIZE:
            raise ValueError(f"uid is at most {MAX_UID_SIZE} bytes")
        uid_len = len(self.uid)
        fixed = self.LAYOUT.pack(self.draw_index, self.card, self.method, self.dev_ms, uid_len)
        return fixed + self.uid

    @classmethod
    def unpack(cls, payload: bytes) -> Self:
        fixed, uid = payload[: cls.LAYOUT.size], payload[cls.LAYOUT.size :]
        if len(fixed) != cls.LAYOUT.size:
            raise MessageError(NakReason.LEN, "CARD_DRAWN payload is too short")
        draw_index, card, method, dev_ms, uid_len = cls.LAYOUT.unpack(fixed)
        if uid_len > MAX_UID_SIZE or len(uid) != uid_len:
            raise MessageError(NakReason.LEN, "CARD_DRAWN uid length does not match")
        return cls(draw_index, card, method, dev_ms, uid)


@dataclass(frozen=True, slots=True)
class CardMisread:
    TYPE: ClassVar[MessageType] = MessageType.CARD_MISREAD
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">HBI")

    draw_index: int
    reason: int
    dev_ms: int

    def pack(self) -> bytes:
        return self.LAYOUT.pack(self.draw_index, self.reason, self.dev_ms)

    @classmethod
    def unpack(cls, payload: bytes) -> Self:
        draw_index, reason, dev_ms = exact_fields(cls.LAYOUT, payload, "CARD_MISREAD")
        return cls(as_int(draw_index), as_int(reason), as_int(dev_ms))


@dataclass(frozen=True, slots=True)
class CutCard:
    TYPE: ClassVar[MessageType] = MessageType.CUT_CARD
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">HI")

    draw_index: int
    dev_ms: int

    def pack(self) -> bytes:
        return self.LAYOUT.pack(self.draw_index, self.dev_ms)

    @classmethod
    def unpack(cls, payload: bytes) -> Self:
        draw_index, dev_ms = exact_fields(cls.LAYOUT, payload, "CUT_CARD")
        return cls(as_int(draw_index), as_int(dev_ms))


@dataclass(frozen=True, slots=True)
class ShoeEmpty:
    TYPE: ClassVar[MessageType] = MessageType.SHOE_EMPTY
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">HI")

    cards_drawn: int
    dev_ms: int

    def pack(self) -> bytes:
        return self.LAYOUT.pack(self.cards_drawn, self.dev_ms)

    @classmethod
    def unpack(cls, payload: bytes) -> Self:
        drawn, dev_ms = exact_fields(cls.LAYOUT, payload, "SHOE_EMPTY")
        return cls(as_int(drawn), as_int(dev_ms))


@dataclass(frozen=True, slots=True)
class ShoeLoaded:
    TYPE: ClassVar[MessageType] = MessageType.SHOE_LOADED
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">BBII")

    deck_type: int
    deck_count: int
    shuffle_id: int
    dev_ms: int

    def pack(self) -> bytes:
        return self.LAYOUT.pack(self.deck_type, self.deck_count, self.shuffle_id, self.dev_ms)

    @classmethod
    def unpack(cls, payload: bytes) -> Self:
        deck_type, count, shuffle_id, dev_ms = exact_fields(cls.LAYOUT, payload, "SHOE_LOADED")
        return cls(as_int(deck_type), as_int(count), as_int(shuffle_id), as_int(dev_ms))


@dataclass(frozen=True, slots=True)
class DrawAborted:
    TYPE: ClassVar[MessageType] = MessageType.DRAW_ABORTED
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">HBI")

    draw_index: int
    reason: int
    dev_ms: int

    def pack(self) -> bytes:
        return self.LAYOUT.pack(self.draw_index, self.reason, self.dev_ms)

    @classmethod
    def unpack(cls, payload: bytes) -> Self:
        draw_index, reason, dev_ms = exact_fields(cls.LAYOUT, payload, "DRAW_ABORTED")
        return cls(as_int(draw_index), as_int(reason), as_int(dev_ms))


@dataclass(frozen=True, slots=True)
class Fault:
    TYPE: ClassVar[MessageType] = MessageType.FAULT
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">BBBI")

    code: int
    severity: int
    active: bool
    dev_ms: int

    def pack(self) -> bytes:
        return self.LAYOUT.pack(self.code, self.severity, int(self.active), self.dev_ms)

    @classmethod
    def unpack(cls, payload: bytes) -> Self:
        code, severity, active, dev_ms = exact_fields(cls.LAYOUT, payload, "FAULT")
        return cls(as_int(code), as_int(severity), as_flag(active), as_int(dev_ms))


@dataclass(frozen=True, slots=True)
class Tamper:
    TYPE: ClassVar[MessageType] = MessageType.TAMPER
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">BBI")
    KIND_LID: ClassVar[int] = 1
    KIND_ENCLOSURE: ClassVar[int] = 2
    KIND_SERVICE_PORT: ClassVar[int] = 3

    kind: int
    active: bool
    dev_ms: int

    def pack(self) -> bytes:
        return self.LAYOUT.pack(self.kind, int(self.active), self.dev_ms)

    @classmethod
    def unpack(cls, payload: bytes) -> Self:
        kind, active, dev_ms = exact_fields(cls.LAYOUT, payload, "TAMPER")
        return cls(as_int(kind), as_flag(active), as_int(dev_ms))
