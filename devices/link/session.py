"""One host session on an open line: handshake, then commit-before-ACK delivery in seq order.

Transport-agnostic: bytes come in through `receive`, time through `now`, and bytes leave through
`take_output`. A new session starts on every (re)opened port.
"""

from collections.abc import Callable
from enum import Enum

from devices.codec.catalogue import EVENT_TYPES, decode_message, message_frame
from devices.codec.challenge import response_matches
from devices.codec.frames import (
    MAX_SEQ,
    Frame,
    RejectReason,
    seq_is_after,
    tag_is_valid,
    wire_bytes,
)
from devices.codec.host_messages import Ack, HostHeartbeat, HostHello, Nak, Resync
from devices.codec.message_types import Message, MessageError, NakReason
from devices.codec.messages import AuthResponse, Heartbeat, Hello
from devices.codec.stream import StreamDecoder
from devices.link.liveness import Liveness
from devices.link.settings import LinkSettings
from devices.link.sink import LinkCounters, LinkSink
from devices.link.tracks import BootTrack

NAK_FOR_REJECTION = {
    RejectReason.COBS: NakReason.CRC,
    RejectReason.CRC: NakReason.CRC,
    RejectReason.OVERSIZE: NakReason.LEN,
    RejectReason.LENGTH: NakReason.LEN,
    RejectReason.VERSION: NakReason.VER,
    RejectReason.AUTH: NakReason.AUTH,
}


class SessionState(Enum):
    AWAITING_HELLO = "awaiting_hello"
    AWAITING_AUTH = "awaiting_auth"
    READY = "ready"


class OutboundSequence:
    """The host's own sequence: per direction, from 1, wrapping past 0."""

    def __init__(self, boot_id: int) -> None:
        self.boot_id = boot_id
        self._seq = 0

    def next(self) -> int:
        self._seq = 1 if self._seq >= MAX_SEQ else self._seq + 1
        return self._seq


class HostSession:
    def __init__(
        self,
        sink: LinkSink,
        settings: LinkSettings,
        liveness: Liveness,
        counters: LinkCounters,
        outbound: OutboundSequence,
        *,
        nonce_source: Callable[[int], bytes],
        wall_clock_ms: Callable[[], int],
        previous_key: bytes | None = None,
    ) -> None:
        self.sink = sink
        self.settings = settings
        self.liveness = liveness
        self.counters = counters
        self._outbound = outbound
        self._nonce_source = nonce_source
        self._wall_clock_ms = wall_clock_ms
        self._previous_key = previous_key
        self.state = SessionState.AWAITING_HELLO
        self.decoder = StreamDecoder()
        self.key: bytes | None = None
        self.hello: Hello | None = None
        self.device_boot_id = 0
        self.frames_received = 0
        self._host_hello: HostHello | None = None
        self._tracks: dict[int, BootTrack] = {}
        self._out = bytearray()
        self._last_nak_at = float("-inf")
        self._last_prompt_at = float("-inf")
        self._auth_deadline = 0.0
        self._next_host_heartbeat = 0.0

    def take_output(self) -> bytes:
        out = bytes(self._out)
        self._out.clear()
        return out

    def receive(self, data: bytes, now: float) -> None:
        before = dict(self.decoder.rejections.counts)
        frames = self.decoder.feed(data)
        self.counters.bytes_received += len(data)
        self._note_rejections(before, now)
        for frame in frames:
            self.frames_received += 1
            self.counters.frames_accepted += 1
            self._on_frame(frame, now)

    def tick(self, now: float) -> None:
        if self.state is SessionState.AWAITING_AUTH and now > self._auth_deadline:
            self.counters.auth_failures += 1
            self._refuse("no answer to the challenge")
        elif self.state is SessionState.READY and now >= self._next_host_heartbeat:
            self._send(HostHeartbeat(self._wall_clock_ms()))
            self._next_host_heartbeat = now + self.settings.heartbeat_interval_s

    # Incoming.

    def _note_rejections(self, before: dict[RejectReason, int], now: float) -> None:
        grown = {
            r: n - before[r] for r, n in self.decoder.rejections.counts.items() if n > before[r]
        }
        if not grown:
            return
        self.counters.add_rejections({reason.value: count for reason, count in grown.items()})
        self._nak(NAK_FOR_REJECTION[next(iter(grown))], now)

    def _on_frame(self, frame: Frame, now: float) -> None:
        try:
            message = decode_message(frame)
        except MessageError as error:
            self._nak(error.nak_reason, now)
            return
        if isinstance(message, Heartbeat):
            self._on_heartbeat(frame, message, now)
        elif isinstance(message, Hello):
            self._on_hello(frame, message, now)
        elif self.state is SessionState.AWAITING_HELLO:
            self._prompt(now)
        elif isinstance(message, AuthResponse):
            self._on_auth_response(frame, message, now)
        elif self.state is SessionState.READY and frame.type in EVENT_TYPES:
            self._on_event(frame, message, now)

    def _on_heartbeat(self, frame: Frame, heartbeat: Heartbeat, now: float) -> None:
        self.liveness.beat(now)
        if self.state is SessionState.READY:
            self.sink.heartbeat(frame.boot_id, heartbeat)

    def _prompt(self, now: float) -> None:
        """A device already streaming does not know we reconnected: ask it to say HELLO."""
        if now - self._last_prompt_at < self.settings.prompt_interval_s:
            return
        self._last_prompt_at = now
        prompt = self._make_host_hello()
        self._send(prompt, key=self._previous_key)

    # Handshake.

    def _on_hello(self, frame: Frame, hello: Hello, now: float) -> None:
        repeated = (frame.boot_id, hello) == (self.device_boot_id, self.hello)
        if self.state is SessionState.AWAITING_AUTH and repeated and self._host_hello:
            self._send(self._host_hello)
            return
        self.hello = hello
        verdict = self.sink.device_hello(hello, frame.boot_id)
        if not verdict.accepted:
            self._refuse(verdict.reason or "device not accepted")
            return
        if verdict.key is not None and not tag_is_valid(frame, verdict.key):
            self.counters.auth_failures += 1
            self._refuse("HELLO is not signed with the registered key")
            return
        self.counters.sessions_started += 1
        self.device_boot_id = frame.boot_id
        self.key = self.decoder.key = self._previous_key = verdict.key
        self._host_hello = self._make_host_hello()
        self._send(self._host_hello)
        if self.key is None:
            self._ready(now)
        else:
            self.state = SessionState.AWAITING_AUTH
            self._auth_deadline = now + self.settings.auth_timeout_s

    def _on_auth_response(self, frame: Frame, response: AuthResponse, now: float) -> None:
        if self.state is not SessionState.AWAITING_AUTH:
            return
        key, hello, host_hello = self.key, self.hello, self._host_hello
        if key is None or hello is None or host_hello is None:
            return
        nonce = host_hello.nonce
        if frame.boot_id == self.device_boot_id and response_matches(
            key, nonce, frame.boot_id, hello.serial, response.mac
        ):
            self._send(Ack(frame.boot_id, 0))
            self._ready(now)
            return
        self.counters.auth_failures += 1
        self._send(Nak(NakReason.AUTH, frame.boot_id, 0))
        self._refuse("the challenge response does not match the registered key")

    def _refuse(self, reason: str) -> None:
        self.counters.sessions_refused += 1
        if self.hello is not None:
            self.sink.session_refused(self.hello, reason)
        self.state = SessionState.AWAITING_HELLO
        self.key = self.decoder.key = None
        self.device_boot_id = 0

    def _ready(self, now: float) -> None:
        self.state = SessionState.READY
        track = self._track(self.device_boot_id)
        self._send(Resync(self.device_boot_id, track.last_committed))
        self.counters.resyncs_sent += 1
        self._send(HostHeartbeat(self._wall_clock_ms()))
        self._next_host_heartbeat = now + self.settings.heartbeat_interval_s

    # Delivery.

    def _on_event(self, frame: Frame, message: Message, now: float) -> None:
        if frame.seq == 0:
            self._nak(NakReason.SEQ, now)
            return
        track = self._track(frame.boot_id)
        if frame.seq == track.expected:
            self._commit(track, frame, message)
        elif seq_is_after(frame.seq, track.last_committed):
            if track.saw_beyond(frame.seq):
                self.counters.gaps_seen += 1
            self._resync_gap(track, now)
        elif self.sink.already_committed(frame.boot_id, frame.seq):
            self.counters.duplicates += 1
            self._send(Ack(frame.boot_id, frame.seq))
        else:
            # Behind a gap a pit boss resolved: the event is real; record it late, never lose it.
            self.counters.add_verdict(self.sink.commit(frame.boot_id, frame.seq, message))
            self._send(Ack(frame.boot_id, frame.seq))

    def _commit(self, track: BootTrack, frame: Frame, message: Message) -> None:
        self.counters.add_verdict(self.sink.commit(frame.boot_id, frame.seq, message))
        track.committed(frame.seq)
        self._send(Ack(frame.boot_id, frame.seq))

    def _resync_gap(self, track: BootTrack, now: float) -> None:
        if now - track.last_resync_at < self.settings.resync_interval_s:
            return
        if track.resyncs_for_gap:
            track.adopt_resolution(self.sink.last_committed_seq(track.boot_id))
        track.resyncs_for_gap += 1
        track.last_resync_at = now
        self._send(Resync(track.boot_id, track.last_committed))
        self.counters.resyncs_sent += 1
        enough = track.resyncs_for_gap >= self.settings.gap_report_after_resyncs
        if enough and not track.gap_reported:
            last_missing = MAX_SEQ if track.highest_seen == 1 else track.highest_seen - 1
            self.sink.open_gap(track.boot_id, track.expected, last_missing)
            track.gap_reported = True
            self.counters.gaps_reported += 1

    def _track(self, boot_id: int) -> BootTrack:
        if boot_id not in self._tracks:
            self._tracks[boot_id] = BootTrack(boot_id, self.sink.last_committed_seq(boot_id))
        return self._tracks[boot_id]

    # Outgoing.

    def _nak(self, reason: NakReason, now: float) -> None:
        if self.state is not SessionState.READY:
            return
        if now - self._last_nak_at < self.settings.nak_min_interval_s:
            return
        self._last_nak_at = now
        track = self._track(self.device_boot_id)
        self._send(Nak(reason, self.device_boot_id, track.last_committed))
        self.counters.naks_sent += 1

    def _make_host_hello(self) -> HostHello:
        return HostHello(
            host_time_ms=self._wall_clock_ms(),
            nonce=self._nonce_source(16),
            heartbeat_interval_ms=round(self.settings.heartbeat_interval_s * 1000),
            table_id=self.settings.table_id,
        )

    def _send(self, message: Message, key: bytes | None = None) -> None:
        frame = message_frame(message, boot_id=self._outbound.boot_id, seq=self._outbound.next())
        self._out += wire_bytes(frame, key if key is not None else self.key)
