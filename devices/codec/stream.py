"""Streaming decoder: arbitrary byte chunks in, checked frames out, every discard counted."""

from dataclasses import dataclass, field

from devices.codec.frames import (
    MAX_ENCODED_FRAME_SIZE,
    Frame,
    FrameError,
    RejectReason,
    decode_wire_chunk,
)

# A run this long without a delimiter cannot be a frame: drop it and wait for the next 0x00.
OVERSIZE_RUN = 2 * MAX_ENCODED_FRAME_SIZE


@dataclass
class Rejections:
    counts: dict[RejectReason, int] = field(default_factory=lambda: dict.fromkeys(RejectReason, 0))

    def count(self, reason: RejectReason) -> None:
        self.counts[reason] += 1

    def __getitem__(self, reason: RejectReason) -> int:
        return self.counts[reason]

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def as_dict(self) -> dict[str, int]:
        return {reason.value: count for reason, count in self.counts.items()}


class StreamDecoder:
    """Feed it whatever the port delivered; it yields the frames that pass every check.

    With a key, frames must carry a valid authentication tag.
    """

    def __init__(self, key: bytes | None = None) -> None:
        self.key = key
        self.rejections = Rejections()
        self.frames_accepted = 0
        self.bytes_received = 0
        self._run = bytearray()
        self._discarding_oversize_run = False

    def feed(self, chunk: bytes) -> list[Frame]:
        self.bytes_received += len(chunk)
        frames: list[Frame] = []
        start = 0
        while True:
            delimiter = chunk.find(0, start)
            if delimiter < 0:
                self._extend_run(chunk[start:])
                return frames
            self._extend_run(chunk[start:delimiter])
            frame = self._close_run()
            if frame is not None:
                frames.append(frame)
            start = delimiter + 1

    def _extend_run(self, data: bytes) -> None:
        if self._discarding_oversize_run or not data:
            return
        self._run += data
        if len(self._run) > OVERSIZE_RUN:
            self.rejections.count(RejectReason.OVERSIZE)
            self._run.clear()
            self._discarding_oversize_run = True

    def _close_run(self) -> Frame | None:
        run = bytes(self._run)
        self._run.clear()
        self._discarding_oversize_run = False
        if not run:
            return None
        try:
            frame = decode_wire_chunk(run, self.key)
        except FrameError as error:
            self.rejections.count(error.reason)
            return None
        self.frames_accepted += 1
        return frame
