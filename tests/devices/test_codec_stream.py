import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from devices.codec.frames import MAX_ENCODED_FRAME_SIZE, Frame, RejectReason, wire_bytes
from devices.codec.stream import OVERSIZE_RUN, StreamDecoder

KEY = b"table-7-shoe-key"


def random_frame(rng: random.Random, seq: int) -> Frame:
    payload = bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 9, 25, 80, 200])))
    return Frame(
        type=rng.choice([0x02, 0x10, 0x12, 0x80]),
        boot_id=rng.getrandbits(32),
        seq=seq,
        payload=payload,
        flags=rng.randrange(4),
    )


def sent_stream(rng: random.Random, count: int, key: bytes | None) -> tuple[bytes, list[Frame]]:
    frames = [random_frame(rng, seq) for seq in range(1, count + 1)]
    return b"".join(wire_bytes(f, key) for f in frames), frames


def feed_in_chunks(decoder: StreamDecoder, data: bytes, rng: random.Random) -> list[Frame]:
    decoded = []
    position = 0
    while position < len(data):
        size = rng.choice([1, 2, 3, 7, 64, 500])
        decoded += decoder.feed(data[position : position + size])
        position += size
    return decoded


def corrupt(data: bytes, rng: random.Random) -> bytes:
    damaged = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(["flip", "truncate", "insert", "delete", "noise", "zero", "swap"])
        at = rng.randrange(len(damaged) or 1)
        if kind == "flip" and damaged:
            damaged[at] ^= 1 << rng.randrange(8)
        elif kind == "truncate":
            del damaged[at:]
        elif kind == "insert":
            damaged[at:at] = bytes([rng.randrange(256)])
        elif kind == "delete" and damaged:
            del damaged[at : at + rng.randint(1, 5)]
        elif kind == "noise":
            damaged[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 600)))
        elif kind == "zero" and damaged:
            damaged[at] = 0
        elif kind == "swap" and len(damaged) > at + 1:
            damaged[at], damaged[at + 1] = damaged[at + 1], damaged[at]
    return bytes(damaged)


def completed_runs(data: bytes) -> int:
    return sum(1 for run in data.split(b"\x00") if run)


@pytest.mark.parametrize("key", [None, KEY])
def test_a_clean_stream_in_any_chunking_yields_every_frame_in_order(key: bytes | None) -> None:
    rng = random.Random(11)
    data, frames = sent_stream(rng, 300, key)
    decoder = StreamDecoder(key)
    decoded = feed_in_chunks(decoder, data, rng)
    assert [(f.type, f.boot_id, f.seq, f.payload) for f in decoded] == [
        (f.type, f.boot_id, f.seq, f.payload) for f in frames
    ]
    assert decoder.rejections.total == 0


@pytest.mark.parametrize(("key", "seed"), [(None, 1), (KEY, 2)])
def test_no_corrupted_frame_is_ever_accepted_and_every_discard_is_counted(
    key: bytes | None, seed: int
) -> None:
    rng = random.Random(seed)
    cases = 4000
    accepted_total = 0
    for _ in range(cases):
        data, frames = sent_stream(rng, rng.randint(1, 4), key)
        sent = {wire_bytes(f, key) for f in frames}
        damaged = corrupt(data, rng) + b"\x00"
        decoder = StreamDecoder(key)
        decoded = feed_in_chunks(decoder, damaged, rng)
        # A frame that decodes must be byte-for-byte one that was sent.
        assert all(wire_bytes(f, key) in sent for f in decoded)
        assert decoder.frames_accepted == len(decoded)
        assert decoder.frames_accepted + decoder.rejections.total == completed_runs(damaged)
        accepted_total += len(decoded)
    # Most damage leaves some neighbouring frames intact: the decoder resynchronises.
    assert accepted_total > cases // 2


def test_garbage_before_the_first_frame_is_discarded_then_frames_flow() -> None:
    rng = random.Random(5)
    garbage = bytes(rng.randrange(1, 256) for _ in range(100))
    frame = Frame(type=0x10, boot_id=3, seq=1, payload=b"x", flags=1)
    decoder = StreamDecoder()
    assert decoder.feed(garbage + wire_bytes(frame)) == [frame]
    assert decoder.rejections.total == 1


def test_a_run_longer_than_twice_the_largest_frame_is_counted_once_as_oversize() -> None:
    decoder = StreamDecoder()
    frame = Frame(type=0x02, boot_id=3, seq=0)
    for _ in range(10):
        decoder.feed(b"\x55" * (OVERSIZE_RUN // 3))
    assert decoder.feed(wire_bytes(frame)) == [frame]
    assert decoder.rejections.as_dict() == {
        "cobs": 0,
        "length": 0,
        "crc": 0,
        "version": 0,
        "oversize": 1,
        "auth": 0,
    }


def test_a_run_between_one_and_two_largest_frames_is_a_length_discard() -> None:
    decoder = StreamDecoder()
    decoder.feed(b"\x00" + b"\x55" * (MAX_ENCODED_FRAME_SIZE + 5) + b"\x00")
    assert decoder.rejections[RejectReason.LENGTH] == 1


def test_a_frame_with_a_foreign_key_counts_as_an_auth_discard() -> None:
    decoder = StreamDecoder(KEY)
    assert decoder.feed(wire_bytes(Frame(type=0x10, boot_id=3, seq=1), b"other")) == []
    assert decoder.rejections[RejectReason.AUTH] == 1


def test_a_single_bit_flip_is_always_caught() -> None:
    frame = Frame(type=0x10, boot_id=0xA5A5A5A5, seq=77, payload=bytes(range(1, 40)), flags=1)
    wire = wire_bytes(frame)
    for bit in range(8, (len(wire) - 1) * 8):
        damaged = bytearray(wire)
        damaged[bit // 8] ^= 1 << (bit % 8)
        assert StreamDecoder().feed(bytes(damaged)) == []


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000), st.lists(st.integers(1, 300), min_size=1, max_size=20))
def test_noise_alone_never_yields_a_frame_and_never_raises(
    noise: bytes, chunk_sizes: list[int]
) -> None:
    decoder = StreamDecoder(KEY)
    position = 0
    for size in chunk_sizes * 10:
        assert decoder.feed(noise[position : position + size]) == []
        position += size
