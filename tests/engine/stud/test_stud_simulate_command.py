"""The simulate_stud management command prints one JSON object with every tally and invariant."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def test_simulate_stud_prints_the_tallies_and_invariants_as_json() -> None:
    out = StringIO()
    call_command(
        "simulate_stud",
        hands=15,
        players=8,
        policy="calling-station",
        seed=2,
        json=True,
        stdout=out,
    )
    report = json.loads(out.getvalue())

    for key in ("hands", "showdowns", "community_card_hands", "side_pots", "split_pots"):
        assert key in report
    assert report["hands"] == 15
    assert report["community_card_hands"] == 15
    assert report["chips_start"] == report["chips_end"] + report["rake_total"]
    assert report["invariants"]["chips_conserved"]["checked"] == 15
    assert report["ok"] is True


def test_simulate_stud_refuses_a_ninth_player() -> None:
    with pytest.raises(CommandError, match="two to eight"):
        call_command("simulate_stud", hands=1, players=9, stdout=StringIO())


def test_simulate_stud_refuses_bad_table_settings_with_the_rule_code() -> None:
    with pytest.raises(CommandError, match="bad_limits"):
        call_command(
            "simulate_stud",
            hands=1,
            table_settings='{"small_bet": 10, "big_bet": 5}',
            stdout=StringIO(),
        )


def test_simulate_stud_draws_table_settings_every_hand() -> None:
    out = StringIO()
    call_command("simulate_stud", hands=30, players=8, seed=4, random_settings=True, stdout=out)
    report = json.loads(out.getvalue())

    assert report["ok"] is True
    assert sum(v for k, v in report["settings_drawn"].items() if k.startswith("odd_chip")) == 30
