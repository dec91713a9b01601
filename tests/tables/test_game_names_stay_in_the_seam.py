"""Nothing outside the engine and the bindings branches on a game's name.

A game's key may appear as data (a model's choices, a hand class of Siete's paytable, a demo
that chooses which game to seed), never as what code compares with or looks up by: those ask
the game's binding. The allow-list names each place and why.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAME_KEYS = ("siete_y_medio", "seven_card_stud", "stud")
LITERAL = re.compile(r"""["'](""" + "|".join(GAME_KEYS) + r""")["']""")
# Where games are defined or merely named as data.
OUTSIDE = (
    "tables/engine/",
    "tables/bindings/",
    "tests/",
    "bench/",
    "docs/",
    "locale/",
    "/migrations/",
)
ALLOWED = {
    # The model's choices: the keys the floor's configuration offers (data, not a branch).
    ("tables/models/floor.py", "siete_y_medio"),
    ("tables/models/floor.py", "seven_card_stud"),
    # "siete_y_medio" is also a hand class of Siete's paytable: these label the payouts by class.
    ("reports/renderers/labels.py", "siete_y_medio"),
    ("tables/pages/labels.py", "siete_y_medio"),
}


def offenders() -> list[str]:
    files = subprocess.run(
        ["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    found = []
    for name in files:
        if any(part in name if part.startswith("/") else name.startswith(part) for part in OUTSIDE):
            continue
        path = ROOT / name
        if not path.exists():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for match in LITERAL.finditer(line):
                if (name, match.group(1)) not in ALLOWED:
                    found.append(f"{name}:{number}: {line.strip()}")
    return found


def test_no_code_outside_the_seam_names_a_game() -> None:
    assert offenders() == []


def test_the_guard_finds_a_game_name() -> None:
    assert LITERAL.search('if table.game == "stud":')
    assert not LITERAL.search("if binding.house_banked:")
