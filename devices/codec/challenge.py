"""Challenge and response: the device proves it holds its key without ever sending it."""

import hashlib
import hmac

from devices.codec.fields import text_field
from devices.codec.message_types import SERIAL_SIZE


def challenge_response(key: bytes, nonce: bytes, boot_id: int, serial: str) -> bytes:
    """HMAC-SHA-256(key, nonce ‖ boot_id ‖ serial): binding the answer to this boot and device."""
    challenge = nonce + boot_id.to_bytes(4, "big") + text_field(serial, SERIAL_SIZE, "serial")
    return hmac.new(key, challenge, hashlib.sha256).digest()


def response_matches(key: bytes, nonce: bytes, boot_id: int, serial: str, mac: bytes) -> bool:
    return hmac.compare_digest(challenge_response(key, nonce, boot_id, serial), mac)
