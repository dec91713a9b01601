"""The messages the host sends to the device."""

import struct
from dataclasses import dataclass
from typing import ClassVar, Self

from devices.codec.fields import as_bytes, as_int, exact_fields, read_text, text_field
from devices.codec.message_types import (
    NONCE_SIZE,
    TABLE_ID_SIZE,
    MessageError,
    MessageType,
    NakReason,
)


@dataclass(frozen=True, slots=True)
class Ack:
    TYPE: ClassVar[MessageType] = MessageType.ACK
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">IH")

    boot_id: int
    seq: int

    def pack(self) -> bytes:
        return self.LAYOUT.pack(self.boot_id, self.seq)

    @classmethod
    def unpack(cls, payload: bytes) -> Self:
        boot_id, seq = exact_fields(cls.LAYOUT, payload, "ACK")
        return cls(as_int(boot_id), as_int(seq))


@dataclass(frozen=True, slots=True)
class Nak:
    TYPE: ClassVar[MessageType] = MessageType.NAK
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">BIH")

    reason: NakReason
    boot_id: int
    highest_contiguous_seq: int

    def pack(self) -> bytes:
        return self.LAYOUT.pack(self.reason, self.boot_id, self.highest_contiguous_seq)

    @classmethod
    def unpack(cls, payload: bytes) -> Self:
        reason, boot_id, seq = exact_fields(cls.LAYOUT, payload, "NAK")
        try:
            nak_reason = NakReason(as_int(reason))
        except ValueError as error:
            raise MessageError(NakReason.LEN, f"unknown NAK reason {reason}") from error
        return cls(nak_reason, as_int(boot_id), as_int(seq))


@dataclass(frozen=True, slots=True)
class HostHello:
    TYPE: ClassVar[MessageType] = MessageType.HOST_HELLO
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">Q16sH16s")

    host_time_ms: int
    nonce: bytes
    heartbeat_interval_ms: int
    table_id: str

    def pack(self) -> bytes:
        if len(self.nonce) != NONCE_SIZE:
            raise ValueError(f"the nonce is {NONCE_SIZE} bytes")
        return self.LAYOUT.pack(
            self.host_time_ms,
            self.nonce,
            self.heartbeat_interval_ms,
            text_field(self.table_id, TABLE_ID_SIZE, "table_id"),
        )

    @classmethod
    def unpack(cls, payload: bytes) -> Self:
        host_time, nonce, interval, table_id = exact_fields(cls.LAYOUT, payload, "HOST_HELLO")
        return cls(as_int(host_time), as_bytes(nonce), as_int(interval), read_text(table_id))


@dataclass(frozen=True, slots=True)
class Resync:
    TYPE: ClassVar[MessageType] = MessageType.RESYNC
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">IH")

    boot_id: int
    after_seq: int

    def pack(self) -> bytes:
        return self.LAYOUT.pack(self.boot_id, self.after_seq)

    @classmethod
    def unpack(cls, payload: bytes) -> Self:
        boot_id, seq = exact_fields(cls.LAYOUT, payload, "RESYNC")
        return cls(as_int(boot_id), as_int(seq))


@dataclass(frozen=True, slots=True)
class HostHeartbeat:
    TYPE: ClassVar[MessageType] = MessageType.HOST_HEARTBEAT
    LAYOUT: ClassVar[struct.Struct] = struct.Struct(">Q")

    host_time_ms: int

    def pack(self) -> bytes:
        return self.LAYOUT.pack(self.host_time_ms)

    @classmethod
    def unpack(cls, payload: bytes) -> Self:
        (host_time,) = exact_fields(cls.LAYOUT, payload, "HOST_HEARTBEAT")
        return cls(as_int(host_time))
