"""The host session's delivery rules, frame by frame (the port-level tests cover the rest)."""

import pytest
from shoe_link_harness import MemorySink, fast_link_settings

from devices.codec.catalogue import decode_message, message_frame
from devices.codec.frames import wire_bytes
from devices.codec.host_messages import Ack, HostHello, Nak, Resync
from devices.codec.message_types import Message
from devices.codec.messages import CardDrawn, Heartbeat, Hello
from devices.codec.stream import StreamDecoder
from devices.link.liveness import Liveness
from devices.link.session import HostSession, OutboundSequence, SessionState
from devices.link.sink import LinkCounters

BOOT = 0x0BADCAFE
HELLO = Hello("SHOE-7", "SIM", "1.0.0", bytes(32))


class Harness:
    def __init__(self, sink: MemorySink | None = None) -> None:
        self.sink = sink or MemorySink()
        self.counters = LinkCounters()
        settings = fast_link_settings(resync_interval_s=0.3, gap_report_after_resyncs=3)
        liveness = Liveness(self.sink, self.counters, settings.heartbeat_interval_s)
        self.session = HostSession(
            self.sink,
            settings,
            liveness,
            self.counters,
            OutboundSequence(99),
            nonce_source=lambda size: bytes(size),
            wall_clock_ms=lambda: 1_000,
        )
        self.now = 0.0
        self._replies = StreamDecoder()

    def send(
        self, message: Message, seq: int = 0, boot_id: int = BOOT, after_s: float = 0.01
    ) -> list[Message]:
        self.now += after_s
        frame = message_frame(message, boot_id=boot_id, seq=seq)
        self.session.receive(wire_bytes(frame), self.now)
        return self.replies()

    def replies(self) -> list[Message]:
        return [decode_message(f) for f in self._replies.feed(self.session.take_output())]

    def start(self) -> list[Message]:
        return self.send(HELLO)


def card(index: int) -> CardDrawn:
    return CardDrawn(draw_index=index, card=0x01, method=3, dev_ms=index)


def test_hello_from_an_unkeyed_shoe_gets_a_host_hello_then_a_resync_from_zero() -> None:
    harness = Harness()
    replies = harness.start()
    assert isinstance(replies[0], HostHello)
    assert replies[1] == Resync(BOOT, 0)
    assert harness.session.state is SessionState.READY


def test_the_ack_comes_only_after_the_commit() -> None:
    harness = Harness()
    harness.start()
    assert harness.send(card(1), seq=1) == [Ack(BOOT, 1)]
    assert [(b, s) for b, s, _ in harness.sink.commits] == [(BOOT, 1)]
    assert harness.counters.verdicts == {"applied": 1}


def test_a_duplicate_is_acked_again_and_not_applied_again() -> None:
    harness = Harness()
    harness.start()
    harness.send(card(1), seq=1)
    assert harness.send(card(1), seq=1) == [Ack(BOOT, 1)]
    assert len(harness.sink.commits) == 1
    assert harness.counters.duplicates == 1


def test_a_jump_in_seq_asks_for_a_resync_and_nothing_past_the_gap_is_committed() -> None:
    harness = Harness()
    harness.start()
    harness.send(card(1), seq=1)
    assert harness.send(card(3), seq=3) == [Resync(BOOT, 1)]
    assert harness.send(card(4), seq=4) == [], "RESYNC is rate-limited while the device answers"
    assert len(harness.sink.commits) == 1
    assert harness.send(card(2), seq=2) == [Ack(BOOT, 2)]
    assert harness.send(card(3), seq=3) == [Ack(BOOT, 3)]
    assert [s for _, s, _ in harness.sink.commits] == [1, 2, 3]
    assert harness.sink.gaps == []


def test_a_gap_the_shoe_cannot_fill_is_reported_to_the_sink_once() -> None:
    harness = Harness()
    harness.start()
    for _ in range(6):
        harness.send(card(9), seq=9, after_s=0.31)
    assert harness.sink.gaps == [(BOOT, 1, 8)]
    assert harness.sink.commits == []


def test_a_corrupted_frame_is_answered_with_a_nak_carrying_the_last_committed_seq() -> None:
    harness = Harness()
    harness.start()
    harness.send(card(1), seq=1)
    damaged = bytearray(wire_bytes(message_frame(card(2), boot_id=BOOT, seq=2)))
    damaged[5] ^= 0x10
    harness.session.receive(bytes(damaged), 1.0)
    replies = harness.replies()
    assert len(replies) == 1
    assert isinstance(replies[0], Nak)
    assert (replies[0].boot_id, replies[0].highest_contiguous_seq) == (BOOT, 1)


def test_frames_before_any_hello_are_not_committed_and_the_shoe_is_prompted() -> None:
    harness = Harness()
    replies = harness.send(card(1), seq=1)
    assert [type(r) for r in replies] == [HostHello]
    assert harness.sink.commits == []


def test_a_heartbeat_marks_the_shoe_online() -> None:
    harness = Harness()
    harness.send(Heartbeat(1, 0, 0, 0))
    assert [t for t, _ in harness.sink.transitions] == ["online"]


def test_a_replayed_event_from_an_earlier_boot_is_deduplicated_by_its_original_boot_id() -> None:
    harness = Harness()
    harness.start()
    harness.send(card(1), seq=1)
    harness.send(HELLO, boot_id=BOOT + 1)
    assert harness.send(card(1), seq=1) == [Ack(BOOT, 1)]
    assert harness.send(card(2), seq=2) == [Ack(BOOT, 2)]
    assert harness.send(card(3), seq=1, boot_id=BOOT + 1) == [Ack(BOOT + 1, 1)]
    assert [(b, s) for b, s, _ in harness.sink.commits] == [(BOOT, 1), (BOOT, 2), (BOOT + 1, 1)]


def test_no_ack_leaves_when_the_commit_fails() -> None:
    def unavailable(boot_id: int, seq: int, message: Message) -> str:
        raise ConnectionError("database unavailable")

    sink = MemorySink()
    sink.commit = unavailable
    harness = Harness(sink)
    harness.start()
    with pytest.raises(ConnectionError):
        harness.send(card(1), seq=1)
    assert not any(isinstance(r, Ack) for r in harness.replies())
