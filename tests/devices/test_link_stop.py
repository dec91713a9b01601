import os
import signal
import threading
from pathlib import Path

from shoe_link_harness import MemorySink, fast_link_settings, relayed_line, wait_until

from devices.link.reader import ShoeLinkReader, stop_on_signals


def test_sigterm_stops_the_reader_and_reports_its_counters(tmp_path: Path) -> None:
    previous = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    sink = MemorySink()
    try:
        with relayed_line(tmp_path) as wiring:
            reader = ShoeLinkReader(wiring.host_url, sink, fast_link_settings())
            stop_on_signals(reader.stop)
            thread = threading.Thread(target=reader.run, daemon=True)
            thread.start()
            assert wait_until(lambda: reader.counters.port_openings == 1, 5)
            os.kill(os.getpid(), signal.SIGTERM)
            thread.join(timeout=3)
    finally:
        signal.signal(signal.SIGTERM, previous[0])
        signal.signal(signal.SIGINT, previous[1])
    assert not thread.is_alive()
    assert sink.last_counters is reader.counters


def test_a_reader_with_nothing_to_open_backs_off_instead_of_spinning(tmp_path: Path) -> None:
    reader = ShoeLinkReader(str(tmp_path / "no-such-tty"), MemorySink(), fast_link_settings())
    thread = threading.Thread(target=reader.run, daemon=True)
    thread.start()
    threading.Event().wait(1.0)
    reader.stop.set()
    thread.join(timeout=3)
    # Backoff from 50 ms doubling to a 400 ms cap: a handful of attempts in a second, not hundreds.
    assert 3 <= reader.counters.open_failures <= 10
