"""Golden rounds: JSON commands in, outcomes and amounts out (tests/engine/siete/golden/*.json).

Each file gives table settings, a list of commands as the API would send them (a `shoe` entry
is shorthand for cards read by the shoe, one `record_card` each; `refused` names the code a
command must be refused with) and the expected result of the round.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from siete_table import Table

from tables.engine.errors import RuleError
from tables.engine.siete import audit_view

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def run(table: Table, entry: dict[str, Any]) -> None:
    entry = dict(entry)
    command_type = entry.pop("type")
    if command_type == "shoe":
        for card in entry["cards"]:
            table.json("record_card", {"card": card, "source": "shoe"})
        return
    refused = entry.pop("refused", None)
    if refused is None:
        table.json(command_type, entry)
        return
    before = table.state
    with pytest.raises(RuleError) as refusal:
        table.json(command_type, entry)
    assert refusal.value.code == refused
    assert table.state is before


def check(table: Table, expect: dict[str, Any]) -> None:
    view, audit = table.view(), audit_view(table.state)
    assert view["phase"] == expect["phase"]
    assert table.alerts() == expect["alerts"]
    for box, fields in expect.get("boxes", {}).items():
        settled = table.settled(int(box))
        assert {name: settled[name] for name in fields} == fields, box
    for box, cards in expect.get("box_cards", {}).items():
        assert next(b for b in view["boxes"] if b["box"] == int(box))["cards"] == cards
    if "live_bank_cards" in expect:
        assert view["bank"]["cards"] == expect["live_bank_cards"]
    if "bank_cards" in expect:
        assert [c["card"] for c in audit["bank"]["cards"]] == expect["bank_cards"]
    if "dead_cards" in expect:
        assert [c["card"] for c in audit["dead_cards"]] == expect["dead_cards"]
    for event_type, key in (("round.settled", "round"), ("round.voided", "voided")):
        if key in expect:
            data = next(e.data for e in table.events if e.type == event_type)
            assert {name: data[name] for name in expect[key]} == expect[key]


@pytest.mark.parametrize("path", GOLDEN, ids=[path.stem for path in GOLDEN])
def test_golden_round(path: Path) -> None:
    golden = json.loads(path.read_text())
    table = Table(**golden.get("settings", {}))
    for entry in golden["commands"]:
        run(table, entry)
    check(table, golden["expect"])
    assert table.replayed() == table.state


def test_the_golden_rounds_cover_every_named_case() -> None:
    assert len(GOLDEN) >= 26
    rulings = {path.stem.split("_")[0] for path in GOLDEN if path.stem.startswith("r")}
    assert {f"r{n}" for n in range(1, 7)} <= rulings
