"""simulate_siete: the return of a strategy, or the invariants under drawn settings, as JSON."""

import json
from io import StringIO

from django.core.management import call_command


def test_simulate_siete_random_play_prints_every_invariant_checked() -> None:
    out = StringIO()
    call_command("simulate_siete", random_play=True, rounds=60, seed=3, stdout=out)
    report = json.loads(out.getvalue())

    assert report["ok"] is True
    assert report["rounds"] == 60
    assert report["invariants"]["replay_reproduces_state"]["checked"] == 60


def test_simulate_siete_random_settings_checks_every_payout() -> None:
    out = StringIO()
    call_command("simulate_siete", random_settings=True, rounds=500, seed=3, stdout=out)
    report = json.loads(out.getvalue())

    assert report["ok"] is True
    assert report["invariants"]["no_card_twice"]["checked"] == 500
