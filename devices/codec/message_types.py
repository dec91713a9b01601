"""Message type codes, NAK reasons and the payload error shared by both directions."""

from enum import IntEnum
from typing import ClassVar, Protocol

SERIAL_SIZE = 16
MODEL_SIZE = 16
FIRMWARE_VERSION_SIZE = 12
FIRMWARE_HASH_SIZE = 32
NONCE_SIZE = 16
TABLE_ID_SIZE = 16
AUTH_RESPONSE_SIZE = 32
MAX_UID_SIZE = 16


class MessageType(IntEnum):
    HELLO = 0x01
    HEARTBEAT = 0x02
    AUTH_RESPONSE = 0x03
    CARD_DRAWN = 0x10
    CARD_MISREAD = 0x11
    CUT_CARD = 0x12
    SHOE_EMPTY = 0x13
    SHOE_LOADED = 0x14
    DRAW_ABORTED = 0x15
    FAULT = 0x20
    TAMPER = 0x21
    ACK = 0x80
    NAK = 0x81
    HOST_HELLO = 0x82
    RESYNC = 0x83
    HOST_HEARTBEAT = 0x85


class NakReason(IntEnum):
    CRC = 1
    LEN = 2
    VER = 3
    TYPE = 4
    AUTH = 5
    SEQ = 6


class MessageError(ValueError):
    """A frame passed its checks but its payload does not fit its type's layout."""

    def __init__(self, nak_reason: NakReason, detail: str) -> None:
        super().__init__(detail)
        self.nak_reason = nak_reason


class Message(Protocol):
    TYPE: ClassVar[MessageType]

    def pack(self) -> bytes: ...
