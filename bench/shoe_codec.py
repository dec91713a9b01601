"""SHOE-LINK codec throughput: frames encoded and decoded per second, with and without tags.

Run: .venv/bin/python bench/shoe_codec.py [--frames N]
"""

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from devices.codec.catalogue import decode_message, message_frame
from devices.codec.frames import wire_bytes
from devices.codec.messages import CardDrawn
from devices.codec.stream import StreamDecoder

KEY = b"bench-shoe-key-0001"


def card_frames(count: int, rng: random.Random) -> list:
    return [
        message_frame(
            CardDrawn(i % 65535 + 1, rng.choice((0x01, 0x1A, 0x2C, 0x37)), 3, i, rng.randbytes(7)),
            boot_id=0x5EED5EED,
            seq=i % 65535 + 1,
        )
        for i in range(count)
    ]


def best_of(runs: int, action) -> float:
    timings = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        timings.append(time.perf_counter() - started)
    return min(timings)


def measure(frames: list, key: bytes | None) -> dict[str, float]:
    stream = b"".join(wire_bytes(frame, key) for frame in frames)
    chunks = [stream[i : i + 4096] for i in range(0, len(stream), 4096)]

    def encode() -> None:
        for frame in frames:
            wire_bytes(frame, key)

    def decode() -> None:
        decoder = StreamDecoder(key)
        decoded = 0
        for chunk in chunks:
            for frame in decoder.feed(chunk):
                decode_message(frame)
                decoded += 1
        assert decoded == len(frames), decoded

    count = len(frames)
    return {
        "encode_fps": count / best_of(3, encode),
        "decode_fps": count / best_of(3, decode),
        "bytes_per_frame": len(stream) / count,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--frames", type=int, default=50_000)
    frames = card_frames(parser.parse_args().frames, random.Random(1))
    print(f"CARD_DRAWN frames with a 7-byte uid, {len(frames)} per run, best of 3")
    for label, key in (("untagged", None), ("HMAC-tagged", KEY)):
        result = measure(frames, key)
        print(
            f"{label:12s} encode {result['encode_fps']:>10,.0f} frames/s   "
            f"decode+parse {result['decode_fps']:>10,.0f} frames/s   "
            f"{result['bytes_per_frame']:.0f} bytes/frame on the wire"
        )


if __name__ == "__main__":
    main()
