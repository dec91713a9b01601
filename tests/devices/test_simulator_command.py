import subprocess
import sys
from pathlib import Path

from shoe_link_harness import MemorySink, fast_link_settings, relayed_line, running, wait_until

from devices.codec.cards import DeckType
from devices.link.reader import ShoeLinkReader
from devices.simulator.dealing import read_draw_log

ROOT = Path(__file__).resolve().parents[2]


def strip_shoe(entries: list[dict]) -> list[dict]:
    return [{k: v for k, v in e.items() if k != "shoe"} for e in entries]


def test_the_management_command_drives_a_shoe_whose_log_matches_what_was_recorded(
    tmp_path: Path,
) -> None:
    sink = MemorySink(keys={"CMD-1": b"command-key"})
    log = tmp_path / "draws.jsonl"
    with relayed_line(tmp_path) as wiring:
        reader = ShoeLinkReader(wiring.host_url, sink, fast_link_settings())
        with running(reader):
            finished = subprocess.run(
                [
                    sys.executable,
                    "manage.py",
                    "shoe_simulator",
                    "--port",
                    wiring.device_url,
                    "--serial",
                    "CMD-1",
                    "--deck",
                    "french",
                    "--decks",
                    "1",
                    "--seed",
                    "9",
                    "--cards",
                    "30",
                    "--key",
                    "command-key",
                    "--log",
                    str(log),
                    "--draw-interval-ms",
                    "5",
                    "--heartbeat-ms",
                    "200",
                    "--faults",
                    "corrupt=0.05,drop=0.05",
                ],
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
    assert finished.returncode == 0, finished.stderr
    assert "30 cards drawn" in finished.stdout
    entries = read_draw_log(log)
    assert sum(1 for e in entries if e["card"] != "cut") == 30
    assert sink.recorded_draws(DeckType.FRENCH) == strip_shoe(entries)


def test_the_interactive_shoe_draws_one_card_per_line_and_exits_when_all_are_acked(
    tmp_path: Path,
) -> None:
    sink = MemorySink()
    log = tmp_path / "draws.jsonl"
    with relayed_line(tmp_path) as wiring:
        reader = ShoeLinkReader(wiring.host_url, sink, fast_link_settings())
        with running(reader):
            finished = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "devices.simulator",
                    "--port",
                    wiring.device_url,
                    "--serial",
                    "CMD-2",
                    "--seed",
                    "3",
                    "--interactive",
                    "--log",
                    str(log),
                    "--heartbeat-ms",
                    "200",
                ],
                cwd=ROOT,
                input="\n\n\n",
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
            assert wait_until(lambda: len(sink.recorded_draws(DeckType.SPANISH)) == 3, 2)
    assert finished.returncode == 0, finished.stderr
    assert [e["draw_index"] for e in read_draw_log(log)] == [1, 2, 3]
    assert sink.recorded_draws(DeckType.SPANISH) == strip_shoe(read_draw_log(log))


def test_an_unknown_fault_name_is_refused_by_the_command() -> None:
    finished = subprocess.run(
        [
            sys.executable,
            "-m",
            "devices.simulator",
            "--port",
            "loop://",
            "--serial",
            "X",
            "--cards",
            "1",
            "--faults",
            "meteor=0.5",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert finished.returncode != 0
    assert "unknown fault 'meteor'" in finished.stderr
