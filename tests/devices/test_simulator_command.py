import subprocess
import sys
from pathlib import Path
from typing import Any

from shoe_link_harness import MemorySink, fast_link_settings, relayed_line, running

from devices.codec.cards import DeckType
from devices.codec.messages import DrawAborted, Tamper
from devices.link.reader import ShoeLinkReader
from devices.simulator.dealing import read_draw_log

ROOT = Path(__file__).resolve().parents[2]


def strip_shoe(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
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


def test_the_interactive_shoe_acts_on_each_line_and_exits_when_all_are_acked(
    tmp_path: Path,
) -> None:
    sink = MemorySink()
    log = tmp_path / "draws.jsonl"
    lines = "\nmisread\nlid open\nabort\nshuffle\nlid closed\n\n"
    command = [
        sys.executable,
        "-m",
        "devices.simulator",
        "--port",
        "PORT",
        "--serial",
        "CMD-2",
        "--seed",
        "3",
        "--interactive",
        "--log",
        str(log),
        "--heartbeat-ms",
        "200",
    ]
    with relayed_line(tmp_path) as wiring:
        command[command.index("PORT")] = wiring.device_url
        reader = ShoeLinkReader(wiring.host_url, sink, fast_link_settings())
        with running(reader):
            finished = subprocess.run(
                command,
                cwd=ROOT,
                input=lines,
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
    assert finished.returncode == 0, finished.stderr
    assert "unknown command 'shuffle'" in finished.stderr
    entries = read_draw_log(log)
    assert [(e["draw_index"], e["card"] == "misread") for e in entries] == [
        (1, False),
        (2, True),
        (3, False),
    ]
    assert sink.recorded_draws(DeckType.SPANISH) == strip_shoe(entries)
    incidents = [m for _, _, m in sink.commits if isinstance(m, (Tamper, DrawAborted))]
    assert [type(m) for m in incidents] == [Tamper, DrawAborted, Tamper]
    assert [getattr(m, "active", None) for m in incidents] == [True, None, False]
    assert isinstance(incidents[1], DrawAborted)
    assert incidents[1].draw_index == 3


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
