"""Consistent Overhead Byte Stuffing: removes every 0x00 so that 0x00 can delimit frames."""


class CobsError(ValueError):
    """The bytes are not a valid COBS encoding."""


def cobs_encode(data: bytes) -> bytes:
    encoded = bytearray()
    block = bytearray()
    for byte in data:
        if byte == 0:
            encoded.append(len(block) + 1)
            encoded += block
            block.clear()
            continue
        block.append(byte)
        if len(block) == 254:
            encoded.append(255)
            encoded += block
            block.clear()
    encoded.append(len(block) + 1)
    encoded += block
    return bytes(encoded)


def cobs_decode(encoded: bytes) -> bytes:
    decoded = bytearray()
    position = 0
    while position < len(encoded):
        code = encoded[position]
        if code == 0:
            raise CobsError("zero byte inside a COBS block")
        block_end = position + code
        if block_end > len(encoded):
            raise CobsError("COBS block runs past the end of the frame")
        block = encoded[position + 1 : block_end]
        if 0 in block:
            raise CobsError("zero byte inside a COBS block")
        decoded += block
        position = block_end
        # A full 254-byte block carries no implied zero; neither does the last block.
        if code != 255 and position < len(encoded):
            decoded.append(0)
    return bytes(decoded)


def max_encoded_size(raw_size: int) -> int:
    return raw_size + raw_size // 254 + 1
