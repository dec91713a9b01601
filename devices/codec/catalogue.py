"""From a checked frame to its message value, and from a message to a frame."""

from typing import Protocol, Self

from devices.codec.frames import FLAG_ACK_REQUIRED, Frame
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


class _Unpackable(Protocol):
    @classmethod
    def unpack(cls, payload: bytes) -> Self: ...


MESSAGE_CLASSES: dict[MessageType, type[_Unpackable]] = {
    cls.TYPE: cls
    for cls in (
        Hello,
        Heartbeat,
        AuthResponse,
        CardDrawn,
        CardMisread,
        CutCard,
        ShoeEmpty,
        ShoeLoaded,
        DrawAborted,
        Fault,
        Tamper,
        Ack,
        Nak,
        HostHello,
        Resync,
        HostHeartbeat,
    )
}

# Every device message is acknowledged except the heartbeat; host messages never are.
ACKED_TYPES = frozenset(
    {
        MessageType.HELLO,
        MessageType.AUTH_RESPONSE,
        MessageType.CARD_DRAWN,
        MessageType.CARD_MISREAD,
        MessageType.CUT_CARD,
        MessageType.SHOE_EMPTY,
        MessageType.SHOE_LOADED,
        MessageType.DRAW_ABORTED,
        MessageType.FAULT,
        MessageType.TAMPER,
    }
)

# Events enter the device's sequence and ring buffer; HELLO and AUTH_RESPONSE belong to a session.
EVENT_TYPES = ACKED_TYPES - {MessageType.HELLO, MessageType.AUTH_RESPONSE}


def decode_message(frame: Frame) -> Message:
    try:
        message_type = MessageType(frame.type)
    except ValueError as error:
        raise MessageError(NakReason.TYPE, f"unknown message type 0x{frame.type:02x}") from error
    message: Message = MESSAGE_CLASSES[message_type].unpack(frame.payload)  # type: ignore[assignment]
    return message


def message_frame(message: Message, *, boot_id: int, seq: int, flags: int = 0) -> Frame:
    if message.TYPE in ACKED_TYPES:
        flags |= FLAG_ACK_REQUIRED
    return Frame(type=message.TYPE, boot_id=boot_id, seq=seq, payload=message.pack(), flags=flags)
